"""A6 — the memory of the training state: full fine-tuning vs LoRA.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 6)::

    一个 3B 模型全量微调（bf16 + AdamW）不算激活要多少显存？一张 24 GB 的卡够不够？改成可训练 1% 的 LoRA 呢？

    Full fine-tuning of a 3B model (bf16 + AdamW), activations not counted: how much GPU
    memory? Is a 24 GB card enough? And with LoRA, training 1% as many parameters?

Answer it for any parameter counts, under the course's convention for bf16 mixed precision
with AdamW. AdamW's per-tensor ``step`` counters (one scalar per parameter tensor) are left out.
All results are bytes, as plain ints (not GB, not GiB).

What the grader measures: your bytes against the bytes of real tensors (a small Llama-style
model set up in that convention for real, after one optimizer step; fully trainable, and with
peft LoRA adapters), and the course's question.

Study: 第四篇 · 必记 / part 4, must-remember; 第四篇 · 结论 / part 4, conclusion.
"""


def full_finetune_bytes(n_params: int) -> int:
    """Bytes of the training state when all ``n_params`` parameters train.

    Args:
        n_params: parameters of the model, all trainable, an int >= 0.

    Returns:
        Bytes, a plain int.

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q6.
    """
    raise NotImplementedError("A6: full_finetune_bytes")


def lora_bytes(n_base: int, n_trainable: int) -> int:
    """Bytes of the training state under LoRA: a frozen base model plus trainable adapters.

    Args:
        n_base: parameters of the frozen base model (all of them: embeddings, norms, linears), >= 0.
        n_trainable: parameters of the LoRA adapters, which are added to the base and are the
            only ones that train, >= 0.

    Returns:
        Bytes, a plain int.

    Source: 第四篇 · 结论 / part 4, conclusion; 第七篇 · A. 判断与计算 / part 7, §五.A q6.
    """
    raise NotImplementedError("A6: lora_bytes")


def state_breakdown(n_frozen: int, n_trainable: int) -> dict[str, int]:
    """The training state split into its parts, in bytes.

    Args:
        n_frozen: frozen parameters (0 for full fine-tuning; the base model under LoRA).
        n_trainable: trainable parameters (all of them for full fine-tuning; the adapters under
            LoRA).

    Returns:
        A dict ``{part name: bytes}`` (plain ints): one entry for each thing the training state
        keeps per trainable parameter, and one entry, named with the word ``"frozen"`` (or
        ``"冻结"``), for the frozen parameters. Names are matched by meaning, in the course's
        words, Chinese or English, or a common synonym; the values add up to :func:`lora_bytes`
        (and, with ``n_frozen == 0``, to :func:`full_finetune_bytes`).

    Measured: each part against the bytes of the real tensors that hold it.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("A6: state_breakdown")
