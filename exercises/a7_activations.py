"""A7 — activation memory, with and without gradient checkpointing.

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
    """Bytes of activations the decoder layers keep for backward during one training forward.

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
