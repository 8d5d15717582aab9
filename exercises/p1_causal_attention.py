"""P1 — causal attention in einsum (part 1 overview §八, "five things to do"; part 2, einsum).

Write the attention of a decoder (each position attends to itself and to earlier positions
only) with ``einsum``, and match PyTorch's fused kernel to floating-point precision. This is
the course's "30 lines of NumPy vs F.scaled_dot_product_attention agree to 2.65e-7" exercise.

The grader compares your output with ``F.scaled_dot_product_attention(q, k, v, is_causal=True)``
on random inputs; do not call that function (or ``torch.nn.MultiheadAttention``) yourself.
"""


def causal_attention(q, k, v):
    """Causal scaled dot-product attention, written with einsum.

    ``out[b, h, t] = sum_s w[b, h, t, s] * v[b, h, s]`` with
    ``w[b, h, t, :] = softmax over the key axis s of (q[b, h, t] . k[b, h, s]) / sqrt(d)``,
    where keys s > t (the future) are masked out: they get weight exactly 0.

    Args:
        q, k, v: ``torch.Tensor`` of shape ``(batch, heads, T, d)``, all three the same shape
            and dtype, ``torch.float32`` or ``torch.float64``, on the CPU. T >= 1, d >= 1.

    Returns:
        ``torch.Tensor`` of shape ``(batch, heads, T, d)`` and the same dtype as the inputs
        (compute float64 inputs in float64).

    Requirements checked:
        * float32 inputs: within 1e-6 (absolute) of SDPA; float64 inputs: within 1e-12.
          The grader draws inputs uniformly from [-1, 1] with T <= 64 and d <= 64; at that scale
          a correct float32 einsum differs from SDPA by about 2e-7 (with standard-normal inputs
          and T = d = 128 the float32 rounding alone can reach ~1.5e-6, so 1e-6 would be unfair).
        * no future leak: changing q/k/v at positions > s never changes the output at <= s.
        * the weights are a softmax over the *key* axis (each row sums to 1), of QK^T / sqrt(d).
        * numerically stable: logits in the hundreds (inputs scaled up, e.g. x30) give no
          NaN/inf and the same result as SDPA. Subtract the row maximum before ``exp``.

    Source: part 2, must-remember "QK^T is 'btd,bsd->bts', PV is 'bts,bsd->btd'" (add the
    head axis: 'bhtd,bhsd->bhts'); part 2 conclusion "match a reference implementation to
    floating-point precision"; softmax is taken along the key axis.
    """
    raise NotImplementedError("P1: causal_attention")
