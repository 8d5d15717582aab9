"""P3 — a memory estimate within 30% (part 4; part 7, §五 "five things to do").

Estimate, before running, the bytes a training step needs, block by block, and match the
measurement within 30% ("跑前算、跑后 max_memory_allocated() 对账，误差 30% 内算会算", part 4).

The measured setup (what the grader runs on CPU, on small random Llama-style models built by
transformers from your ``config``, eager attention):

    model = LlamaForCausalLM(LlamaConfig(**config))          # fp32 weights
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(2):                                      # ids: LongTensor (B, T)
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)

``config`` is a plain dict: ``vocab_size``, ``hidden_size`` (d), ``intermediate_size`` (d_ff),
``num_hidden_layers``, ``num_attention_heads``, ``num_key_value_heads`` (GQA), ``head_dim``
(may differ from d / heads; absent means d / heads), ``tie_word_embeddings`` (True: the LM head
is the embedding matrix, counted once), ``max_position_embeddings``. Llama layers: q/k/v/o
projections and the gate/up/down MLP without bias, two RMSNorm weights per layer, one final norm.
"""


def estimate_training_memory(config: dict, batch_size: int, seq_len: int) -> dict:
    """Bytes of each memory block of the training step above, and its peak.

    Returns a dict of numbers, all in BYTES (not GiB):
        ``"parameters"``: fp32 weights (4 bytes per parameter, a tied embedding once);
        ``"gradients"``: one fp32 ``.grad`` per parameter, as after ``backward()``;
        ``"optimizer_state"``: AdamW's state after ``opt.step()`` (two fp32 moments per parameter;
            the per-tensor ``step`` counters are negligible);
        ``"activations"``: the tensors autograd saves for backward during one forward (counted
            once per storage, parameters excluded): they scale with B x T x layers x width —
            hidden-size and intermediate-size tensors per layer, the eager attention's
            (B, heads, T, T) softmax, the (B*T, V) logits — not with the parameter count;
        ``"peak"``: the largest number of bytes alive at once during a steady-state step (the
            second one): weights and optimizer state are always alive; activations are all alive
            at the start of backward, together with backward's temporaries; backward frees them
            as the gradients appear.

    Measured: real tensor bytes after a step; activations with
    ``torch.autograd.graph.saved_tensors_hooks``; the peak with torch's ``MemTracker`` (and,
    on a GPU, ``torch.cuda.max_memory_allocated()``). Each block within 30% on every case.

    Source: part 4, must-remember "16 bytes per trainable parameter = 2 + 2 + 4 + 4 + 4 (bf16
    mixed precision; here plain fp32: 4 + 4 + 8)" and "activations scale with B x T x layers x d,
    not with parameters"; part 7, §四 (the four blocks).
    """
    raise NotImplementedError("P3: estimate_training_memory")


def course_memory_gb(config: dict, lora_r: int = 16) -> dict:
    """Training-state memory of part 4's convention, in decimal GB (1 GB = 1e9 bytes).

    Returns ``{"full": GB, "lora": GB, "qlora": GB}`` for the model ``config`` (same keys as
    above; count its parameters from the config):
        ``"full"``: bf16 mixed precision + AdamW: 16 bytes per parameter (2 bf16 weight +
            2 bf16 gradient + 4 fp32 master weight + 4 + 4 fp32 moments);
        ``"lora"``: the frozen base in bf16 (2 bytes per parameter) + 16 bytes per LoRA
            parameter; LoRA of rank ``lora_r`` on all seven linear layers of every block
            (q, k, v, o, gate, up, down; not the LM head): ``r x (in_features + out_features)``
            each;
        ``"qlora"``: the base in NF4: 4 bits per weight plus one fp32 absmax per block of 64
            weights = 4.5 bits per parameter, + 16 bytes per LoRA parameter.

    Llama-3-8B (8.03B parameters, 41.9M LoRA parameters at r=16): 128.5 / 16.7 / ~5.1 GB.

    Source: part 4, must-remember "16 bytes per trainable parameter; 128.5 / 16.7 / 5.1 GB".
    """
    raise NotImplementedError("P3: course_memory_gb")
