"""C1 — a 70B fine-tuning plan, with the account.

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 1)::

    让你微调一个 70B 模型，全量还是 LoRA、几张 80 GB 卡？把账算给我看。

    You are to fine-tune a 70B model: full or LoRA, and how many 80 GB cards? Show me the
    account.

The answer is arithmetic, so here it is code: the bytes per trainable parameter, the training
state of each method, the number of GPUs, the choice between DDP and FSDP and the bytes on each
GPU; then the follow-up directions. Convention: bf16 mixed precision with AdamW, as in the
course. All sizes are bytes (ints).

What the grader measures: your bytes against the real tensors of a small model set up in that
convention (fully trainable and with peft LoRA), your arithmetic on drawn model and GPU sizes,
and the course's 70B question.

Study: 第四篇 · 必记 / part 4, must-remember; 第四篇 · 结论 / part 4, conclusion;
第七篇 · C. 面试题 / part 7, §五.C.
"""


def bytes_per_trainable_param() -> dict[str, int]:
    """The bytes one trainable parameter costs in the training state, part by part.

    Returns:
        A dict ``{part name: bytes per parameter}`` (ints), one entry per part; names in the
        course's words, Chinese or English, or a common synonym, matched by meaning.

    Measured: against the bytes of real tensors of a small model after one optimizer step.
    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("C1: bytes_per_trainable_param")


def state_bytes(n_base: int, n_adapter: int, method: str) -> int:
    """Training-state bytes (no activations) of one method.

    Args:
        n_base: parameters of the base model.
        n_adapter: LoRA adapter parameters (0 for ``"full"``).
        method: ``"full"`` (every base parameter trains), ``"lora"`` (the base is frozen, the
            adapters train) or ``"qlora"`` (as LoRA, with the frozen base stored the way QLoRA
            stores it; bytes rounded up to an int).

    Returns:
        Bytes, an int.

    Raises:
        ValueError: an unknown method.

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q1.
    """
    raise NotImplementedError("C1: state_bytes")


def inference_bytes(n_params: int) -> int:
    """Bytes that bf16 inference needs for the model's parameters (an int).

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q1, follow-ups.
    """
    raise NotImplementedError("C1: inference_bytes")


def gpus_needed(total_bytes: int, gpu_bytes: int) -> int:
    """The fewest GPUs of ``gpu_bytes`` each whose memory together holds ``total_bytes`` (an int).

    Source: 第七篇 · C. 面试题 / part 7, §五.C q1.
    """
    raise NotImplementedError("C1: gpus_needed")


def choose_strategy(replica_bytes: int, gpu_bytes: int) -> str:
    """``"DDP"`` or ``"FSDP"`` for a run whose full replica (the training state plus one GPU's
    activations) takes ``replica_bytes``, on GPUs of ``gpu_bytes``.

    Source: 第四篇 · 结论 (多卡) / part 4, conclusion.
    """
    raise NotImplementedError("C1: choose_strategy")


def per_gpu_bytes(state_bytes: int, activation_bytes: int, strategy: str, n_gpus: int) -> int:
    """Bytes on each GPU.

    Args:
        state_bytes: the whole training state (as :func:`state_bytes`).
        activation_bytes: the activations of the micro-batch one GPU processes.
        strategy: ``"DDP"`` or ``"FSDP"``.
        n_gpus: the number of GPUs (>= 1).

    Returns:
        Bytes, an int (rounded up).

    Raises:
        ValueError: an unknown strategy.

    Source: 第四篇 · 结论 (多卡) / part 4, conclusion.
    """
    raise NotImplementedError("C1: per_gpu_bytes")
