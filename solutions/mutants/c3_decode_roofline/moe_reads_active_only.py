"""Thinks MoE decode reads only one token's active experts, whatever the batch: it looks as cheap
as a small dense model, though the batch's tokens are routed to different experts."""

from solutions.c3_decode_roofline import *  # noqa: F403

KILLED_BY = ("moe_decode_cost",)


def moe_decode_cost(total_params, active_params, batch, bytes_per_param):
    return 2.0 * active_params * batch, float(active_params * bytes_per_param)
