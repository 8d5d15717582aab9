"""A8 — LoRA's trainable parameters, from a config and r.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 8)::

    第五篇的 0.5B 模型 \\(r = 16\\) 时可训练 8.80M、训练状态 141 MB；把 r 改成 32，两者各变成多少？

    Part 5's 0.5B model has 8.80M trainable parameters and a 141 MB training state at r = 16;
    with r = 32, what do the two become?

Count them from ``config.json`` alone, without building the model.

What the grader measures: your count against what peft itself makes trainable on a model
of the same config, for drawn configs, ranks and target modules, and the course's model.

Study: 第五篇 · 必记 / part 5, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A.
"""


def lora_trainable_params(config: dict, r: int, target_modules) -> int:
    """The number of parameters that train after adding LoRA of rank ``r`` to a Llama-style model.

    Args:
        config: a plain dict with the fields of a Llama / Qwen2 ``config.json``:
            ``hidden_size``, ``intermediate_size``, ``num_hidden_layers``,
            ``num_attention_heads``, ``num_key_value_heads``, ``vocab_size``,
            ``tie_word_embeddings`` and, optionally, ``head_dim`` (absent, or ``None`` as real
            configs write it: it is ``hidden_size // num_attention_heads``; an int: it may differ
            from that, as in Qwen3). The decoder layers are transformers' ``LlamaDecoderLayer`` (bias-free
            linears).
        r: the LoRA rank, an int >= 1.
        target_modules: what the grader passes as peft's ``target_modules``: the string
            ``"all-linear"``, read as peft reads it, or a list of the linear modules' names
            inside a decoder layer (e.g. ``["q_proj", "down_proj"]``), each hooked in every layer.

    Returns:
        The count, a plain int (parameters, not bytes): the parameters that require a gradient
        once peft has added LoRA of rank ``r`` on ``target_modules``, every other LoRA setting
        at peft's default.

    Source: 第五篇 · 必记 / part 5, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q8.
    """
    raise NotImplementedError("A8: lora_trainable_params")
