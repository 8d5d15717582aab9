"""Charges the weight read once per SEQUENCE of the batch (memory time x batch): as if each
sequence streamed the whole model, where one batched step reads every weight once and applies it
to all the batch's tokens — which is why batching below the ridge is nearly free.

kekzl/imp PR #746 (a batched decode that "looped a single M=1 GEMV per sequence — each call
re-reads the whole ~389 MiB LM-head matrix ... batch=16 read it 16x per step"; fixed by loading
each weight row once and reusing it across rows); inference-sim/inference-sim issue #489 (weight
bytes double-counted; "Model weights are loaded from HBM once per step").
"""

from solutions.x4_decode_bytes import *  # noqa: F403

KILLED_BY = ("step_time_vs_batch",)
MISCONCEPTION = (
    "read the weights once per sequence (x batch): a batched step reads each weight once for the whole batch"
)


def decode_step_ms(n_params, bytes_per_param, batch, peak_flops, bandwidth):
    return max(2 * n_params * batch / peak_flops, n_params * bytes_per_param * batch / bandwidth) * 1e3
