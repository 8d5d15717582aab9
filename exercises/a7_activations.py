"""A7 — activation memory vs B, T and checkpointing (part 7, §五.A question 7; part 4, activations).

Llama-3-8B fine-tuning with B = 2, T = 8192: how much activation memory without gradient
checkpointing, and with it? Write the estimate as a function of the model's config.
"""


def activation_bytes(config: dict, batch: int, seq_len: int, checkpointing: bool = False,
                     bytes_per_elem: int = 2) -> int:
    """Bytes of activations the decoder layers keep for backward during one training forward.

    "Activations" are the tensors autograd saves for backward inside the transformer blocks
    (attention + MLP + their RMSNorms), not the weights, gradients or optimizer state, and not
    the embedding, final norm, LM head or logits. Attention is a fused kernel
    (``F.scaled_dot_product_attention``), so no T x T score matrix is stored.

    Args:
        config: a Llama-style config as a plain dict with at least ``hidden_size`` (d),
            ``intermediate_size`` (d_ff) and ``num_hidden_layers``; it also carries
            ``vocab_size``, ``num_attention_heads``, ``num_key_value_heads``, ``head_dim``,
            ``tie_word_embeddings`` (use what you need).
        batch: B, sequences per step (int >= 1).
        seq_len: T, tokens per sequence (int >= 1).
        checkpointing: gradient checkpointing on (``model.gradient_checkpointing_enable()``).
        bytes_per_elem: bytes of one activation element: 2 for bf16, 4 for fp32.

    Returns:
        Bytes (an int, not GiB). Without checkpointing the course's rule of thumb is about
        6 d-sized and 3 d_ff-sized tensors per token per layer; with checkpointing each layer
        keeps only its input (d per token) and recomputes the rest in backward.
        Llama-3-8B, B = 1, T = 4096, bf16: about 16.5 GiB without, 1.0 GiB with checkpointing.

    How it is checked: against the bytes measured with ``torch.autograd.graph.saved_tensors_hooks``
    inside the decoder layers of real small ``LlamaForCausalLM`` models (parameters excluded,
    each storage counted once). With checkpointing the answer must equal the measurement;
    without, it must lie between 0.5x and 1.25x of it and scale with B and T as it does.

    Source: part 4, must-remember "activations scale with B x T x layers x d, not with
    parameters; checkpointing keeps layer inputs only" (part 7, §五.A question 7).
    """
    raise NotImplementedError("A7: activation_bytes")
