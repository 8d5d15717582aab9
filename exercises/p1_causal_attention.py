"""P1 — causal attention, written with einsum.

The course asks (第七篇 · 二、逐篇回顾 · 第二篇, 核心问题; one of 总纲 · 八、自测清单：五件做出来的事)::

    看到一个 attention 的公式，能不能写出对应的 einsum？

    Given the formula of attention, can you write the einsum for it?

Write the causal scaled dot-product attention of a decoder with ``einsum`` (torch or numpy),
and make it agree with PyTorch's fused kernel to floating-point precision. Do not call
``F.scaled_dot_product_attention`` or ``torch.nn.MultiheadAttention`` yourself.

What the grader measures: your output against ``F.scaled_dot_product_attention(q, k, v,
is_causal=True)`` on drawn inputs, at the precision the course asks for each dtype; that no
output depends on later positions; the attention weights themselves; and large inputs.

Study: 第二篇 · 必记 / part 2, must-remember; 第二篇 · 结论 / part 2, conclusion;
第七篇 · 四、常见误区 / part 7, §四.
"""


def causal_attention(q, k, v):
    """Causal scaled dot-product attention.

    Args:
        q, k, v: ``torch.Tensor`` of shape ``(batch, heads, T, d)``, all three the same shape
            and dtype, ``torch.float32`` or ``torch.float64``, on the CPU. T >= 1, d >= 1.

    Returns:
        ``torch.Tensor`` of shape ``(batch, heads, T, d)`` and the dtype of the inputs (float64
        inputs are computed in float64).

    Measured: float32 and float64 inputs drawn from [-1, 1] with T, d <= 64; inputs scaled up
    until the logits are in the hundreds (float32) or thousands (float64), which must stay
    finite and still agree.

    Source: 第二篇 · 必记 / part 2, must-remember; 第二篇 · 结论 / part 2, conclusion.
    """
    raise NotImplementedError("P1: causal_attention")
