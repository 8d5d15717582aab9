"""Reads every expert's weights whatever the batch: one sequence's token uses its active experts
only, so at batch 1 the step reads those, not the whole model."""

from solutions.c3_decode_roofline import *  # noqa: F403

KILLED_BY = ("moe_decode_cost",)


def moe_decode_cost(total_params, active_params, batch, bytes_per_param):
    return 2.0 * active_params * batch, float(total_params * bytes_per_param)
