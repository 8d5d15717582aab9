"""A8 — LoRA trainable parameters from a config and r (part 7, §五.A question 8; part 5, LoRA).

The 0.5B model of part 5 has 8.80M trainable parameters at r = 16. How many at r = 32? Count
them from ``config.json`` alone, without building the model: every linear layer that LoRA
hooks gets two small matrices, A (r x in_features) and B (out_features x r).
"""

LINEAR_MODULES = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def lora_trainable_params(config: dict, r: int, target_modules="all-linear") -> int:
    """The number of trainable parameters peft adds to a Llama-style model with LoRA rank ``r``.

    Args:
        config: a plain dict with the fields of a Llama/Qwen2 ``config.json``:
            ``hidden_size`` (d), ``intermediate_size`` (d_ff), ``num_hidden_layers``,
            ``num_attention_heads``, ``num_key_value_heads`` (GQA: fewer K/V heads than Q heads),
            ``vocab_size``, ``tie_word_embeddings`` and, optionally, ``head_dim``.
            If ``head_dim`` is absent it is ``hidden_size // num_attention_heads``; if present it
            may differ from that (as in Qwen3). Each decoder layer has these bias-free linears:
            ``q_proj`` d -> heads*head_dim, ``k_proj`` and ``v_proj`` d -> kv_heads*head_dim,
            ``o_proj`` heads*head_dim -> d, ``gate_proj`` and ``up_proj`` d -> d_ff,
            ``down_proj`` d_ff -> d. The model also has embeddings, RMSNorms and ``lm_head``.
        r: the LoRA rank, an int >= 1.
        target_modules: ``"all-linear"`` (peft's meaning: every linear layer of the decoder
            except the output layer ``lm_head``, i.e. the seven above in every layer), or a
            list of names from ``LINEAR_MODULES`` (each hooked in every layer).

    Returns:
        The count as a plain int (a number of parameters, not bytes), equal to
        ``sum(p.numel() for p in peft_model.parameters() if p.requires_grad)`` after
        ``get_peft_model(model, LoraConfig(r=r, target_modules=target_modules))``.
        E.g. Qwen2.5-0.5B (d 896, d_ff 4864, 24 layers, 14 / 2 heads, head_dim 64), r = 16,
        all-linear -> 8,798,208. The base model is frozen: nothing else is trainable.

    Source: part 5, must-remember "LoRA adds (alpha/r) BAx; all-linear hooks seven linears;
    0.5B trainable 8.80M"; part 7 §五.A question 8 "LoRA parameters r(m + n) are linear in r".
    """
    raise NotImplementedError("A8: lora_trainable_params")
