"""Counts one multiply-add as one FLOP (n_params FLOPs per token instead of 2 x n_params): the
arithmetic intensity comes out as batch / 2, half the truth.

The MACs/FLOPs confusion of facebookresearch/fvcore issue #69 ("We count one fused multiply-add as
one flop ... Yeah it actually means MAC. There is a long-standing confusion") and
sovrasov/flops-counter.pytorch issue #40 ("everywhere variables named flops are handled as macs").
"""

import solutions.c3_decode_roofline as reference
from solutions.c3_decode_roofline import *  # noqa: F401,F403

KILLED_BY = ("decode_step_cost",)
MISCONCEPTION = "count a multiply-add as one FLOP: a decode step does 2 FLOPs per weight per token"


def decode_cost(n_params, batch, bytes_per_param):
    return 1.0 * n_params * batch, float(n_params * bytes_per_param)


reference.decode_cost = decode_cost
