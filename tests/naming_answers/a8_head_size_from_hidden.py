"""Takes the head size as hidden_size / num_attention_heads whatever the config says: the slip of
LMCache/LMCache issue #688 ("head_size = hidden_size / num_attention_heads ... wrong results when
head_size not equal to it like Qwen3-4B"), here in the q/k/v/o widths of a LoRA count."""

from solutions.a8_lora_params import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A8", ("matches_peft",), "ignores the config's head_dim"


def lora_trainable_params(config, r, target_modules):
    d, d_ff = config["hidden_size"], config["intermediate_size"]
    hd = d // config["num_attention_heads"]
    q, kv = config["num_attention_heads"] * hd, config["num_key_value_heads"] * hd
    shapes = {
        "q_proj": (d, q),
        "k_proj": (d, kv),
        "v_proj": (d, kv),
        "o_proj": (q, d),
        "gate_proj": (d, d_ff),
        "up_proj": (d, d_ff),
        "down_proj": (d_ff, d),
    }
    names = shapes if target_modules == "all-linear" else target_modules
    return sum(r * sum(shapes[n]) for n in names) * config["num_hidden_layers"]
