"""Counts LoRA on fused projections (one qkv_proj d -> q + 2 kv and one gate_up_proj d -> 2 d_ff,
as in Phi-3): one A matrix per fused layer instead of one per projection, so fewer parameters.

The layout mix-up of vllm-project/vllm issue #4715 ("expected target modules in ['q_proj', 'k_proj',
'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj' ...] but received ['gate_up_proj',
'qkv_proj']"); Llama and Qwen2 keep the seven linears separate.
"""

from solutions.a8_lora_params import *  # noqa: F401,F403
from solutions.a8_lora_params import LINEAR_MODULES, linear_shapes

KILLED_BY = ("matches_peft", "qwen_0_5b")
MISCONCEPTION = "count q/k/v and gate/up as fused layers (Phi-3's qkv_proj, gate_up_proj): Llama keeps them separate"


def lora_trainable_params(config, r, target_modules="all-linear"):
    names = set(LINEAR_MODULES if target_modules == "all-linear" else target_modules)
    s = linear_shapes(config)
    total = 0
    qkv = [n for n in ("q_proj", "k_proj", "v_proj") if n in names]
    if qkv:
        total += r * (s["q_proj"][0] + sum(s[n][1] for n in qkv))
    gate_up = [n for n in ("gate_proj", "up_proj") if n in names]
    if gate_up:
        total += r * (s["gate_proj"][0] + sum(s[n][1] for n in gate_up))
    for n in ("o_proj", "down_proj"):
        if n in names:
            total += r * (s[n][0] + s[n][1])
    return total * config["num_hidden_layers"]
