""" "bf16 mixed precision" read as torch.autocast keeps it (X3): the parameter stays fp32 and is its
own master copy, its gradient is fp32, plus AdamW's two fp32 moments; 4 + 4 + 4 + 4 = 16 bytes.

Valid: the issue's reading that X3 itself teaches; the course's 2 + 2 + 4 + 4 + 4 passes too.
"""

from solutions.r_recall import *  # noqa: F403

PASSES = ("bytes_per_param",)


def bytes_per_param_parts():
    return {"fp32 weights": 4, "fp32 gradients": 4, "Adam moment 1": 4, "Adam moment 2": 4}
