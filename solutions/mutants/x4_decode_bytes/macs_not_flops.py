"""Counts one FLOP per parameter and token (a multiply-accumulate) instead of two (a multiply and
an add): the compute time is halved, and the batch at which decode turns compute-bound doubles.

facebookresearch/fvcore issue #69 (its "flop" counts are MACs: "we count one fused multiply-add as
one flop"); sovrasov/flops-counter.pytorch issue #40 (MACs reported where FLOPs were expected).
"""

from solutions.x4_decode_bytes import *  # noqa: F403

KILLED_BY = ("step_time_vs_batch",)
MISCONCEPTION = "count one FLOP per parameter per token: a multiply-add is 2 FLOPs, so compute is 2 x params x batch"


def decode_step_ms(n_params, bytes_per_param, batch, peak_flops, bandwidth):
    return max(n_params * batch / peak_flops, n_params * bytes_per_param / bandwidth) * 1e3
