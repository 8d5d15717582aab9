"""P3 — 在运行之前估算一步训练的显存。

课程问（第七篇 · 二、逐篇回顾 · 第四篇，核心问题；也是 总纲 · 八、自测清单：五件做出来的事 之一）::

    能不能算出一个 8B 模型全量微调要多少显存、为什么 LoRA 能放进一张卡？

在运行之前，逐块估算一步训练需要的字节数，并按课程的要求与测量值吻合（第七篇 · D. 掌握判据）。

测量的设置（评分器在 CPU 上运行的内容，用 transformers 按你的 ``config`` 构建的小的随机 Llama 式模型，
eager attention）::

    model = LlamaForCausalLM(LlamaConfig(**config))          # fp32 权重
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    # 在 ids（LongTensor (B, T)）上做两步训练：loss 为 model(input_ids=ids, labels=ids).loss，
    # 它的梯度，一次 AdamW 更新；没有 .grad 张量活到下一步的 forward

``config`` 是一个普通 dict：``vocab_size``、``hidden_size``、``intermediate_size``、
``num_hidden_layers``、``num_attention_heads``、``num_key_value_heads``、``head_dim``（可以不等于
hidden_size / heads；缺省或 ``None`` 表示 hidden_size / heads）、``tie_word_embeddings``
（True：LM head 就是 embedding 矩阵）、``max_position_embeddings``。各层是 transformers 的 Llama 层
（linear 无 bias，RMSNorm）。

评分器测什么：每一块和峰值与真实测量值相比，在几个抽取的 config、batch size 和序列长度上（在 GPU 上还与
``torch.cuda.max_memory_allocated()`` 相比），在课程的容差之内；以及课程的约定在抽取的 config 和它的 8B
模型上。

学习：第四篇 · 必记；第四篇 · 结论；第七篇 · D. 掌握判据。

English
-------

P3 — estimate the memory of a training step before running it.

The course asks (第七篇 · 二、逐篇回顾 · 第四篇, 核心问题; one of 总纲 · 八、自测清单：五件做出来的事)::

    能不能算出一个 8B 模型全量微调要多少显存、为什么 LoRA 能放进一张卡？

    Can you work out how much GPU memory a full fine-tune of an 8B model needs, and why LoRA
    fits on one card?

Estimate, before running, the bytes a training step needs, block by block, and match the
measurement as the course asks you to (第七篇 · D. 掌握判据).

The measured setup (what the grader runs on CPU, on small random Llama-style models built by
transformers from your ``config``, eager attention)::

    model = LlamaForCausalLM(LlamaConfig(**config))          # fp32 weights
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    # two training steps on ids, a LongTensor (B, T): the loss model(input_ids=ids, labels=ids).loss,
    # its gradients, one AdamW update; no .grad tensor survives into the next step's forward

``config`` is a plain dict: ``vocab_size``, ``hidden_size``, ``intermediate_size``,
``num_hidden_layers``, ``num_attention_heads``, ``num_key_value_heads``, ``head_dim`` (may
differ from hidden_size / heads; absent or ``None`` means hidden_size / heads), ``tie_word_embeddings``
(True: the LM head is the embedding matrix), ``max_position_embeddings``. The layers are
transformers' Llama layers (bias-free linears, RMSNorm).

What the grader measures: every block and the peak against the real measurement on several
drawn configs, batch sizes and sequence lengths (and, on a GPU, against
``torch.cuda.max_memory_allocated()``), within the course's tolerance; and the course's
convention on drawn configs and its 8B model.

Study: 第四篇 · 必记 / part 4, must-remember; 第四篇 · 结论 / part 4, conclusion;
第七篇 · D. 掌握判据 / part 7, §五.D.
"""


def estimate_training_memory(config: dict, batch_size: int, seq_len: int) -> dict:
    """上面那一步训练的每一块显存的字节数，以及它的峰值。

    返回一个由数字组成的 dict，全部以字节（BYTES）计（不是 GiB）：
        ``"parameters"``：模型的参数；
        ``"gradients"``：``backward()`` 之后的 ``.grad`` 张量；
        ``"optimizer_state"``：``opt.step()`` 之后 AdamW 的状态；
        ``"activations"``：一次 forward 中 autograd 为 backward 保存的张量（每块存储只算一次，不含
            参数）；
        ``"peak"``：稳定状态的一步（第二步）中同时存活的最多字节数。

    测的是：一步之后真实张量的字节数；激活用
    ``torch.autograd.graph.saved_tensors_hooks``；峰值用 torch 的 ``MemTracker``。

    出处：第四篇 · 必记；第四篇 · 结论。

    English
    -------

    Bytes of each memory block of the training step above, and its peak.

    Returns a dict of numbers, all in BYTES (not GiB):
        ``"parameters"``: the model's parameters;
        ``"gradients"``: the ``.grad`` tensors after ``backward()``;
        ``"optimizer_state"``: AdamW's state after ``opt.step()``;
        ``"activations"``: the tensors autograd saves for backward during one forward (counted
            once per storage, parameters excluded);
        ``"peak"``: the most bytes alive at once during a steady-state step (the second one).

    Measured: real tensor bytes after a step; activations with
    ``torch.autograd.graph.saved_tensors_hooks``; the peak with torch's ``MemTracker``.

    Source: 第四篇 · 必记 / part 4, must-remember; 第四篇 · 结论 / part 4, conclusion.
    """
    raise NotImplementedError("P3: estimate_training_memory")


def course_memory_gb(config: dict, lora_r: int) -> dict:
    """按课程第四篇的约定的训练状态，以十进制 GB 计（1 GB = 1e9 bytes）。

    对模型 ``config`` 返回 ``{"full": GB, "lora": GB, "qlora": GB}``（键同上；参数量从 config 数出）：
        ``"full"``：bf16 混合精度加 AdamW，每个参数都训练；
        ``"lora"``：基座冻结，秩为 ``lora_r``、``target_modules="all-linear"``（按 peft 的读法）的
            LoRA 训练；
        ``"qlora"``：同 ``"lora"``，冻结的基座以 NF4 存储，每 64 个权重一块，每块一个 fp32 scale。

    出处：第四篇 · 必记。

    English
    -------

    The training state under the course's part-4 convention, in decimal GB (1 GB = 1e9 bytes).

    Returns ``{"full": GB, "lora": GB, "qlora": GB}`` for the model ``config`` (same keys as
    above; count its parameters from the config):
        ``"full"``: bf16 mixed precision with AdamW, every parameter trains;
        ``"lora"``: the base frozen, LoRA of rank ``lora_r`` with ``target_modules="all-linear"``
            (as peft reads it) trains;
        ``"qlora"``: as ``"lora"``, with the frozen base stored in NF4 with one fp32 scale
            per block of 64 weights.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("P3: course_memory_gb")
