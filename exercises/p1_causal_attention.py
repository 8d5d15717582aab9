"""P1 — 用 einsum 写的因果 attention。

课程问（第七篇 · 二、逐篇回顾 · 第二篇，核心问题；也是 总纲 · 八、自测清单：五件做出来的事 之一）::

    看到一个 attention 的公式，能不能写出对应的 einsum？

用 ``einsum``（torch 或 numpy）写出 decoder 的因果 scaled dot-product attention，并让它与 PyTorch 的
融合 kernel 在浮点精度内一致。不要自己调用 ``F.scaled_dot_product_attention`` 或
``torch.nn.MultiheadAttention``。

评分器测什么：你的输出与 ``F.scaled_dot_product_attention(q, k, v,
is_causal=True)`` 在抽取的输入上相比，按课程对每种 dtype 要求的精度；任何输出都不依赖后面的位置；
attention 权重本身；以及大的输入。

学习：第二篇 · 必记；第二篇 · 结论；第七篇 · 四、常见误区。

English
-------

P1 — causal attention, written with einsum.

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
    """因果 scaled dot-product attention。

    参数：
        q, k, v: 形状 ``(batch, heads, T, d)`` 的 ``torch.Tensor``，三者形状和 dtype 相同，
            ``torch.float32`` 或 ``torch.float64``，在 CPU 上。T >= 1，d >= 1。

    返回：
        形状 ``(batch, heads, T, d)``、dtype 与输入相同的 ``torch.Tensor``（float64 的输入用 float64
        计算）。

    测的是：从 [-1, 1] 抽取的 float32 和 float64 输入，T, d <= 64；以及放大到 logits 达到几百（float32）
    或几千（float64）的输入，输出必须保持有限且仍然一致。

    出处：第二篇 · 必记；第二篇 · 结论。

    English
    -------

    Causal scaled dot-product attention.

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
