"""Writes the score einsum for the (batch, seq, heads, head_dim) layout flash-attn uses
("bshd,bShd->bhsS") while the heads axis comes second, (batch, heads, seq, head_dim), as for
scaled_dot_product_attention: heads and sequence swap roles.

pytorch/pytorch PR #184348 (FlopCounterMode passed BSHD flash-attention tensors to a BHSD count:
"This swapped heads and sequence length"); Dao-AILab/flash-attention issue #1803 (flash_attn_func
vs scaled_dot_product_attention "completely different": the two layouts); huggingface/candle PR
#245 ("flash-attn expects (b_sz, seq_len, nheads, head_dim)").
"""

from solutions.r_recall import *  # noqa: F401,F403
from solutions.r_recall import einsum_qk as _reference

KILLED_BY = ("einsum_qk",)
MISCONCEPTION = (
    "write the einsum for the (batch, seq, heads, head_dim) layout: here the heads axis is second, "
    "(batch, heads, seq, head_dim)"
)


def einsum_qk(with_heads=False):
    return "bthd,bshd->bhts" if with_heads else _reference(False)
