"""P3 — a memory estimate within 30% (part 4). Reference answer."""

BYTES_FP32 = 4


def _dims(config):
    d = config["hidden_size"]
    n_heads = config["num_attention_heads"]
    n_kv = config.get("num_key_value_heads") or n_heads
    head_dim = config.get("head_dim") or d // n_heads
    return d, n_heads, n_kv, head_dim, config["intermediate_size"], config["num_hidden_layers"], config["vocab_size"]


def parameter_count(config):
    d, h, kv, hd, ff, L, V = _dims(config)
    attn = d * h * hd * 2 + d * kv * hd * 2  # q, o and k, v projections (no bias)
    mlp = 3 * d * ff  # gate, up, down
    per_layer = attn + mlp + 2 * d  # two RMSNorm weights
    embed = V * d * (1 if config.get("tie_word_embeddings") else 2)
    return L * per_layer + embed + d  # + final norm


def estimate_training_memory(config, batch_size, seq_len):
    d, h, kv, hd, ff, L, V = _dims(config)
    B, T, s = batch_size, seq_len, BYTES_FP32
    n = parameter_count(config)
    parameters = n * s
    gradients = n * s
    optimizer_state = 2 * n * s  # AdamW: exp_avg and exp_avg_sq, fp32
    # Saved for backward, per token and layer (eager attention): 6 hidden-size tensors (norm
    # inputs/outputs, residuals), q, k, v as the matmuls see them and the o_proj input (4 x heads
    # x head_dim), 4 intermediate-size tensors (gate, up, silu, product), 2 RMS factors, and the
    # softmax'd T x T scores per head. Outside the layers: final norm, lm_head input, logits.
    per_token_layer = 6 * d + 4 * h * hd + 4 * ff + 2 + h * T
    activations = s * B * T * (L * per_token_layer + 3 * d + V + 1)
    # Peak of a steady-state step: weights and optimizer state are always live. Early in
    # backward nearly every activation is still alive, plus temporaries: the logits' gradient
    # (2 x B*T*V) or, in the last layer's attention backward, two B*heads*T*T score gradients.
    # Later the gradients fill in while activations are freed (set_to_none=True freed them).
    start_of_backward = activations + 2 * s * B * T * V
    # by the last layer's attention backward the logits' and that layer's MLP tensors are freed
    in_attention_backward = activations - s * B * T * (V + 4 * ff + 6 * d) + 2 * s * B * h * T * T
    # late in backward / in the step: every gradient plus temporaries of about half their size
    end_of_backward = gradients + parameters // 2
    peak = parameters + optimizer_state + max(start_of_backward, in_attention_backward, end_of_backward)
    return {
        "parameters": parameters,
        "gradients": gradients,
        "optimizer_state": optimizer_state,
        "activations": activations,
        "peak": peak,
    }


def lora_parameter_count(config, r):
    d, h, kv, hd, ff, L, V = _dims(config)
    shapes = [(d, h * hd), (d, kv * hd), (d, kv * hd), (h * hd, d), (d, ff), (d, ff), (ff, d)]
    return L * sum(r * (i + o) for i, o in shapes)


def course_memory_gb(config, lora_r=16):
    n = parameter_count(config)
    lora = lora_parameter_count(config, lora_r)
    return {
        "full": n * 16 / 1e9,  # 2 + 2 + 4 + 4 + 4 bytes per parameter
        "lora": (n * 2 + lora * 16) / 1e9,  # frozen bf16 base + 16 B per LoRA parameter
        "qlora": (n * 4.5 / 8 + lora * 16) / 1e9,  # NF4 base: 4 bits + fp32 absmax per 64 = 4.5 bits
    }
