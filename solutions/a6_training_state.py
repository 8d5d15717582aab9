"""A6 — full fine-tuning vs LoRA training-state memory (part 7, §五.A question 6; part 4)."""

BF16, FP32 = 2, 4  # bytes per element

# Per trainable parameter: bf16 weight, bf16 grad, fp32 master, AdamW m and v in fp32 = 16 bytes.
TRAINABLE = {"weights": BF16, "grads": BF16, "master": FP32, "adam_m": FP32, "adam_v": FP32}
FROZEN = BF16  # a frozen parameter keeps its bf16 weight only


def state_breakdown(n_frozen: int, n_trainable: int) -> dict[str, int]:
    """Bytes of each part of the training state (see the stub for the keys)."""
    return {"frozen_weights": FROZEN * n_frozen, **{k: b * n_trainable for k, b in TRAINABLE.items()}}


def full_finetune_bytes(n_params: int) -> int:
    """16 bytes per parameter: everything trains."""
    return sum(state_breakdown(0, n_params).values())


def lora_bytes(n_base: int, n_trainable: int) -> int:
    """2 bytes per frozen base parameter + 16 bytes per adapter parameter."""
    return sum(state_breakdown(n_base, n_trainable).values())
