"""Part 4's must-remember line as the course writes it: "bf16 权重 2 + bf16 梯度 2 + fp32 主权重 4 + AdamW 两个矩
4 + 4", the two moments in one entry of 8 bytes.

Valid: the course's own account; an entry naming both moments is read as the two of them.
"""

from solutions.r_recall import *  # noqa: F403

PASSES = ("bytes_per_param",)


def bytes_per_param_parts():
    return {"bf16 权重": 2, "bf16 梯度": 2, "fp32 主权重": 4, "AdamW 两个矩": 8}
