"""Computes an MoE decode step's FLOPs with every expert (2 x total params x batch) instead of the
active ones: the step looks far more compute-heavy than it is (its bytes are right).

The FLOPs count AI-Hypercomputer/maxtext PR #678 corrected ("Update TFLOPs calculation from number
of total experts for each ffn to number of active experts ... Mixtral 8x7b - Total TFLOPs: 287.78
-> 79.98").
"""

from solutions.c3_decode_roofline import *  # noqa: F401,F403

KILLED_BY = ("moe_decode_cost",)
MISCONCEPTION = "count an MoE step's FLOPs with every expert: each token computes with its active experts only"


def moe_decode_cost(total_params, active_params, batch, bytes_per_param):
    return 2.0 * total_params * batch, float(min(total_params, batch * active_params) * bytes_per_param)
