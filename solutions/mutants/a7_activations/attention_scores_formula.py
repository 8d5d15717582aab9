"""Uses the per-layer formula of Korthikanti et al., ``s b h (34 + 5 a s / h)`` bytes (16-bit),
whose ``5 a s^2 b`` term is the attention scores, softmax and dropout mask that eager attention
stores: with a fused kernel (SDPA, flash attention) none of them is kept, and the estimate grows
like T^2 where the measurement grows like T.

The formula as a learner applied it to flash attention in Dao-AILab/flash-attention issue #899 ("In
the traditional attention, the activation memory can be computed in 11sbh+5as^2b bytes ... How to
compute the exact activation memory in flash attention?"; the maintainer: "there'll be no term
that's quadratic in s, so the 5as^2b term should be gone"), and as the calculator of
manuelescobar-dev/LLM-Tools issue #4 uses it.
"""

from solutions.a7_activations import *  # noqa: F401,F403
from solutions.a7_activations import activation_bytes as _right

KILLED_BY = ("growth_with_inputs",)
MISCONCEPTION = "use s b h (34 + 5 a s / h) with its T^2 attention-score term: a fused attention kernel keeps no scores"


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    if checkpointing:
        return _right(config, batch, seq_len, True, bytes_per_elem)
    d, heads, layers = config["hidden_size"], config["num_attention_heads"], config["num_hidden_layers"]
    per_layer_16bit = 34 * seq_len * batch * d + 5 * heads * seq_len * seq_len * batch  # bytes at 2 per element
    return layers * per_layer_16bit * bytes_per_elem // 2
