"""A7 — 激活的显存，开与不开 gradient checkpointing。

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 7 题）::

    Llama-3-8B 微调，\\(B = 2\\)、\\(T = 8192\\)，不开 checkpointing 的激活约多少？开了呢？

作为模型 config、batch 和序列长度的函数作答。

评分器测什么：你的字节数与 autograd 在真实的小 ``LlamaForCausalLM`` 模型的 decoder 层里为 backward
保存的字节数相比（``torch.autograd.graph.
saved_tensors_hooks``，不含参数，每块存储只算一次），开与不开 transformers 的 gradient
checkpointing，以及它们随 B、T 和词表怎样变化。

学习：第四篇 · 必记；第四篇 · 结论。

English
-------

A7 — activation memory, with and without gradient checkpointing.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 7)::

    Llama-3-8B 微调，\\(B = 2\\)、\\(T = 8192\\)，不开 checkpointing 的激活约多少？开了呢？

    Fine-tuning Llama-3-8B with B = 2, T = 8192: about how much activation memory without
    checkpointing? And with it?

Answer it as a function of the model's config, the batch and the sequence length.

What the grader measures: your bytes against the bytes autograd saves for backward inside the
decoder layers of real small ``LlamaForCausalLM`` models (``torch.autograd.graph.
saved_tensors_hooks``, parameters excluded, each storage counted once), with and without
transformers' gradient checkpointing, and how they change with B, T and the vocabulary.

Study: 第四篇 · 必记 / part 4, must-remember; 第四篇 · 结论 / part 4, conclusion.
"""


def activation_bytes(
    config: dict, batch: int, seq_len: int, checkpointing: bool = False, bytes_per_elem: int = 2
) -> int:
    """一次训练前向中 decoder 层为 backward 保留的激活的字节数。

    “激活”是 autograd 在 transformer block（attention、MLP 和它们的 RMSNorm）里为 backward 保存的
    张量，不是权重、梯度或优化器状态，也不是 embedding、最后的 norm、LM head 或 logits。attention 以
    一个融合 kernel 运行（``F.scaled_dot_product_attention``）。

    参数：
        config: Llama 式的 config，普通 dict，含 ``hidden_size``、
            ``intermediate_size``、``num_hidden_layers``、``vocab_size``、
            ``num_attention_heads``、``num_key_value_heads``、``head_dim``、
            ``tie_word_embeddings``（用你需要的）。
        batch: B，每步的序列数，int，>= 1。
        seq_len: T，每条序列的 token 数，int，>= 1。
        checkpointing: 是否开启 gradient checkpointing（``model.gradient_checkpointing_enable()``）。
        bytes_per_elem: 一个激活元素的字节数（模型的 dtype）。

    返回：
        字节数，int（不是 GiB）。

    测的是：开 checkpointing 时与测量值相等；不开时在测量值的 0.5x 到 1.25x 之间，并且在 B、T 或词表
    变化时与它同样地变化。

    出处：第四篇 · 必记；第七篇 · A. 判断与计算（第 7 题）。

    English
    -------

    Bytes of activations the decoder layers keep for backward during one training forward.

    "Activations" are the tensors autograd saves for backward inside the transformer blocks
    (attention, MLP and their RMSNorms), not the weights, gradients or optimizer state, and not
    the embedding, final norm, LM head or logits. Attention runs as one fused kernel
    (``F.scaled_dot_product_attention``).

    Args:
        config: a Llama-style config as a plain dict with ``hidden_size``,
            ``intermediate_size``, ``num_hidden_layers``, ``vocab_size``,
            ``num_attention_heads``, ``num_key_value_heads``, ``head_dim``,
            ``tie_word_embeddings`` (use what you need).
        batch: B, sequences per step, an int >= 1.
        seq_len: T, tokens per sequence, an int >= 1.
        checkpointing: gradient checkpointing on (``model.gradient_checkpointing_enable()``).
        bytes_per_elem: bytes of one activation element (the model's dtype).

    Returns:
        Bytes, an int (not GiB).

    Measured: with checkpointing, equal to the measurement; without, within 0.5x to 1.25x of
    it and changing as it does when B, T or the vocabulary change.

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q7.
    """
    raise NotImplementedError("A7: activation_bytes")
