"""P3 — estimate the memory of a training step before running it.

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
    """Bytes of each memory block of the training step above, and its peak.

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
    """The training state under the course's part-4 convention, in decimal GB (1 GB = 1e9 bytes).

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
