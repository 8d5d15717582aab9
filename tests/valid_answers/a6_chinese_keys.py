"""A valid A6 answer the check once rejected: its keys in the course's Chinese, the frozen part
named 「冻结的 bf16 权重」 beside the trainable 「bf16 权重」 (the qualifier 冻结 decides)."""

_ZH = {
    "weights": "bf16 权重",
    "grads": "bf16 梯度",
    "master": "fp32 主权重",
    "adam_m": "一阶矩",
    "adam_v": "二阶矩",
    "frozen_weights": "冻结的 bf16 权重",
}
_reference_breakdown = state_breakdown  # noqa: F821 - the reference's, defined above this file


def state_breakdown(n_frozen, n_trainable):
    return {_ZH[k]: v for k, v in _reference_breakdown(n_frozen, n_trainable).items()}
