"""C1 — a 70B fine-tuning plan (part 7, §五.C question 1; part 4)."""

BF16, FP32 = 2, 4
PARTS = {"weights": BF16, "grads": BF16, "master": FP32, "adam_m": FP32, "adam_v": FP32}  # 16


def bytes_per_trainable_param() -> dict[str, int]:
    return dict(PARTS)


def state_bytes(n_base: int, n_adapter: int, method: str) -> int:
    per_trainable = sum(PARTS.values())
    if method == "full":
        return per_trainable * n_base
    if method == "lora":
        return BF16 * n_base + per_trainable * n_adapter  # frozen bf16 base + adapters' 16 bytes
    if method == "qlora":
        return (n_base + 1) // 2 + per_trainable * n_adapter  # 4-bit base: half a byte per param
    raise ValueError(f"unknown method {method!r}")


def inference_bytes(n_params: int) -> int:
    return BF16 * n_params  # 2 of the 16 bytes: 1/8


def gpus_needed(total_bytes: int, gpu_bytes: int) -> int:
    return -(-total_bytes // gpu_bytes)


def choose_strategy(replica_bytes: int, gpu_bytes: int) -> str:
    return "DDP" if replica_bytes <= gpu_bytes else "FSDP"


def per_gpu_bytes(state_bytes: int, activation_bytes: int, strategy: str, n_gpus: int) -> int:
    if strategy == "DDP":
        return state_bytes + activation_bytes
    if strategy == "FSDP":
        return -(-state_bytes // n_gpus) + activation_bytes
    raise ValueError(f"unknown strategy {strategy!r}")
