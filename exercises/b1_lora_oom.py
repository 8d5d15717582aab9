"""B1 — an 8B LoRA SFT on one 80 GB GPU: the account says 16.7 GB, yet max_length=8192 with
batch 4 per GPU runs out of memory. Which block overflows, and what do you change?
(part 7, §五.B question 1; parts 3, 4 and 5).

The parts it draws on: part 4 (activations scale with B x T, not with the parameters; gradient
checkpointing keeps layer inputs only), part 3 (gradient accumulation: backward() accumulates),
part 5 (shorter sequences / packing in the SFT config). All sizes are in bytes (ints).
"""


def diagnose(state_bytes: int, activation_bytes: int, gpu_bytes: int) -> str:
    """Which block overflows the GPU.

    Args:
        state_bytes: weights + grads + optimizer state (the 16.7 GB of the LoRA account).
        activation_bytes: the activations of one training step on this GPU.
        gpu_bytes: the GPU's memory.

    Returns:
        ``"parameters_and_state"`` if the state alone does not fit, else ``"activations"`` if
        state + activations do not fit, else ``"fits"``.

    Source: part 4, "LoRA and still OOM is not the parameters: look at the activations".
    """
    raise NotImplementedError("B1: diagnose")


def scale_activations(measured_bytes: int, measured_batch: int, measured_seq_len: int, batch: int, seq_len: int) -> int:
    """Activation bytes at (batch, seq_len), from a measurement at (measured_batch, measured_seq_len).

    Activations are proportional to B x T (at fixed model): Llama-3-8B measured 16.5 GiB at
    B=1, T=4096 -> 8x at B=4, T=8192 (~132 GiB). Returns an int (rounded to the nearest byte).
    Checked against activations measured on real models. Source: part 4, must-remember.
    """
    raise NotImplementedError("B1: scale_activations")


def checkpointed_activation_bytes(config: dict, batch: int, seq_len: int, bytes_per_element: int) -> int:
    """Activation bytes with gradient checkpointing: only each decoder layer's input is kept.

    Args:
        config: plain dict with ``hidden_size`` and ``num_hidden_layers``.
    Returns B x T x hidden_size x layers x bytes_per_element (Llama-3-8B, B=1, T=4096, bf16: 1.0 GiB).
    Checked against saved-for-backward bytes measured under transformers' gradient checkpointing.
    Source: part 4, "checkpointing stores each layer's input and recomputes (~30% more compute)".
    """
    raise NotImplementedError("B1: checkpointed_activation_bytes")


def accumulation_plan(batch: int, max_micro_batch: int) -> tuple[int, int]:
    """Keep the effective batch while lowering the per-step batch: ``(micro_batch, steps)``.

    micro_batch is the largest divisor of ``batch`` that is <= ``max_micro_batch``; steps =
    batch // micro_batch backward passes accumulate before one optimizer step, so
    micro_batch x steps == batch. E.g. batch 4, at most 1 fits -> (1, 4).
    Source: part 3, "backward() accumulates into .grad, so accumulation needs no extra code".
    """
    raise NotImplementedError("B1: accumulation_plan")


def max_seq_len(state_bytes: int, activation_bytes_per_token: int, batch: int, gpu_bytes: int) -> int:
    """The longest sequence (tokens, >= 0) that fits: state + batch x T x bytes_per_token <= gpu_bytes.

    Source: part 5, shorten max_length / use packing; part 4, activations proportional to B x T.
    """
    raise NotImplementedError("B1: max_seq_len")
