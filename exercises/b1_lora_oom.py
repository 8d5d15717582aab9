"""B1 — a LoRA SFT whose account fits, and which still runs out of memory.

The course asks (第七篇 · 五、通关自测 · B. 跨篇综合, question 1)::

    8B LoRA SFT 在一张 80 GB 卡上，账算出 16.7 GB，但 SFTConfig 里 max_length=8192、每卡 batch 4 时
    OOM。哪一块爆了？改什么？

    An 8B LoRA SFT on one 80 GB card: the account says 16.7 GB, yet with max_length=8192 and a
    per-GPU batch of 4 in SFTConfig it runs out of memory. Which block overflowed? What do you
    change?

Answer it as numbers and a decision. All sizes are bytes (ints).

What the grader measures: your decision on drawn budgets and on the course's; your activation
bytes against those measured in real small Llama models (as they are, and with your first fix
made); your other two plans against the constraints they must meet.

Study: 第四篇 · 必记 / part 4, must-remember; 第三篇 · 结论 (Autograd) / part 3, conclusion;
第五篇 · 结论 / part 5, conclusion.
"""


def diagnose(state_bytes: int, activation_bytes: int, gpu_bytes: int) -> str:
    """Which block makes the GPU overflow?

    Args:
        state_bytes: weights + gradients + optimizer state (the account of the question).
        activation_bytes: the activations of one training step on this GPU.
        gpu_bytes: the GPU's memory.

    Returns:
        ``"parameters_and_state"`` or ``"activations"``: the block that overflows the GPU;
        ``"fits"`` when nothing overflows.

    Source: 第四篇 · 结论 / part 4, conclusion; 第七篇 · B. 跨篇综合 / part 7, §五.B q1.
    """
    raise NotImplementedError("B1: diagnose")


def scale_activations(measured_bytes: int, measured_batch: int, measured_seq_len: int, batch: int, seq_len: int) -> int:
    """The activation bytes of the same model at ``(batch, seq_len)``, from a measurement at
    ``(measured_batch, measured_seq_len)``.

    Returns an int (rounded to the nearest byte). Measured against real models at the new B, T.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("B1: scale_activations")


def activations_after_fix(config: dict, batch: int, seq_len: int, bytes_per_element: int) -> int:
    """Your first fix changes neither the model nor ``batch`` nor ``seq_len``: the activation
    bytes of one training step once it is made.

    Args:
        config: a Llama-style config as a plain dict (the fields of ``config.json``:
            ``hidden_size``, ``intermediate_size``, ``num_hidden_layers``, ...).
        batch, seq_len: B and T. bytes_per_element: bytes of one activation element.

    Returns an int, measured against the bytes real models save for backward with the fix made.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("B1: activations_after_fix")


def batch_plan(batch: int, max_per_pass: int) -> tuple[int, int]:
    """Your second fix: only ``max_per_pass`` samples fit through the model at a time, and
    every optimizer step must still learn from ``batch`` samples.

    Returns:
        ``(per_pass, passes)``: ints; ``per_pass`` samples go through the model at a time,
        ``per_pass * passes == batch``, ``per_pass <= max_per_pass``, ``per_pass`` as large
        as possible.

    Source: 第三篇 · 结论 (Autograd) / part 3, conclusion.
    """
    raise NotImplementedError("B1: batch_plan")


def fit_limit(state_bytes: int, activation_bytes_per_token: int, batch: int, gpu_bytes: int) -> int:
    """Your third fix keeps the batch: the most tokens per sequence (an int >= 0) with which a
    step of ``batch`` sequences still fits, when one token of one sequence costs
    ``activation_bytes_per_token`` of activations.

    Source: 第五篇 · 结论 / part 5, conclusion; 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("B1: fit_limit")
