"""Reads autocast as keeping bf16 gradients of an fp32 parameter: 4 + 2 + 4 + 4 = 14 bytes (part 7
§四: "开了 autocast 参数就是 bf16 了" turned around; the gradient of an fp32 leaf is fp32)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("bytes_per_param",)


def bytes_per_param_parts():
    return {"fp32 weights": 4, "bf16 grads": 2, "first moment": 4, "second moment": 4}
