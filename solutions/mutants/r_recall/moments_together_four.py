"""Names AdamW's two moments together, as the course does, but counts them 4 bytes (one fp32 moment)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("bytes_per_param",)


def bytes_per_param_parts():
    return {"bf16 权重": 2, "bf16 梯度": 2, "fp32 主权重": 4, "AdamW 两个矩": 4}
