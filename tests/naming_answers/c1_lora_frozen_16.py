"""LoRA's state with every base parameter at 16 bytes (part 7 §四: "LoRA 只减梯度与状态那 14 字节 / 参数")."""

from solutions.c1_70b_plan import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C1", ("lora_total",), "counts the frozen base at 16 bytes"


def state_bytes(n_base, n_adapter, method):
    if method == "full":
        return 16 * n_base
    if method == "lora":
        return 16 * (n_base + n_adapter)
    if method == "qlora":
        return (n_base + 1) // 2 + 16 * n_adapter
    raise ValueError(method)
