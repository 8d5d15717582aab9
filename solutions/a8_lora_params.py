"""A8 — LoRA trainable parameters from a config and r (part 7, §五.A question 8; part 5, LoRA)."""

LINEAR_MODULES = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def linear_shapes(config: dict) -> dict[str, tuple[int, int]]:
    """(in_features, out_features) of each linear layer of one decoder layer."""
    d, d_ff = config["hidden_size"], config["intermediate_size"]
    head_dim = config.get("head_dim") or d // config["num_attention_heads"]
    q = config["num_attention_heads"] * head_dim
    kv = config["num_key_value_heads"] * head_dim  # GQA: K and V have the fewer kv heads
    return {
        "q_proj": (d, q),
        "k_proj": (d, kv),
        "v_proj": (d, kv),
        "o_proj": (q, d),
        "gate_proj": (d, d_ff),
        "up_proj": (d, d_ff),
        "down_proj": (d_ff, d),
    }


def lora_trainable_params(config: dict, r: int, target_modules) -> int:
    """r * (in + out) per hooked linear (A is r x in, B is out x r), times the layers."""
    names = LINEAR_MODULES if target_modules == "all-linear" else tuple(target_modules)
    shapes = linear_shapes(config)
    per_layer = sum(r * (shapes[n][0] + shapes[n][1]) for n in names)
    return per_layer * config["num_hidden_layers"]
