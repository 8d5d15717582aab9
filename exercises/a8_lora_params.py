"""A8 — LoRA 的可训练参数，从 config 和 r 算出。

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 8 题）::

    第五篇的 0.5B 模型 \\(r = 16\\) 时可训练 8.80M、训练状态 141 MB；把 r 改成 32，两者各变成多少？

只从 ``config.json`` 数出来，不要构建模型。

评分器测什么：你的计数与 peft 自己在同样 config 的模型上设为可训练的参数相比，对抽取的 config、
秩和 target module，以及课程的这个模型。

学习：第五篇 · 必记；第七篇 · A. 判断与计算。

English
-------

A8 — LoRA's trainable parameters, from a config and r.

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
    """给一个 Llama 式模型加上秩为 ``r`` 的 LoRA 之后要训练的参数个数。

    参数：
        config: 普通 dict，含 Llama / Qwen2 ``config.json`` 的字段：
            ``hidden_size``、``intermediate_size``、``num_hidden_layers``、
            ``num_attention_heads``、``num_key_value_heads``、``vocab_size``、
            ``tie_word_embeddings``，以及可选的 ``head_dim``（缺省，或像真实 config 那样写成
            ``None``：它就是 ``hidden_size // num_attention_heads``；是 int 时可能与之不同，如
            Qwen3）。decoder 层是 transformers 的 ``LlamaDecoderLayer``（linear 无 bias）。
        r: LoRA 的秩，int，>= 1。
        target_modules: 评分器作为 peft 的 ``target_modules`` 传入的东西：字符串
            ``"all-linear"``（按 peft 的读法理解），或 decoder 层里 linear 模块名字组成的 list
            （例如 ``["q_proj", "down_proj"]``），每一层都挂上。

    返回：
        计数，普通的 int（参数个数，不是字节）：peft 在 ``target_modules`` 上加了秩为 ``r`` 的
        LoRA 之后需要梯度的参数，其余 LoRA 设置都取 peft 的默认值。

    出处：第五篇 · 必记；第七篇 · A. 判断与计算（第 8 题）。

    English
    -------

    The number of parameters that train after adding LoRA of rank ``r`` to a Llama-style model.

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
