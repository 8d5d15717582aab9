"""P1 — causal attention in einsum. Ground truth: F.scaled_dot_product_attention(is_causal=True),
run here, in the check's process, on the same inputs sent to the learner.

Inputs are drawn uniformly from [-1, 1] with T, d <= 64. At that scale a correct float32 einsum
differs from SDPA by about 2e-7 (measured max 2.4e-7 over T, d up to 128 for four correct
variants), so atol 1e-6 leaves a 4x margin; standard-normal inputs at T = d = 128 reach 1.7e-6
from float32 rounding alone, which is why the inputs are bounded. float64 agrees to ~5e-16.
"""

import math

import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_tensor, blame, expect_close, fail
from grader.i18n import _


def _uniform(shape, dtype, seed, n=3):
    g = torch.Generator().manual_seed(seed)
    return [torch.rand(shape, generator=g, dtype=dtype) * 2 - 1 for _ in range(n)]


def _sdpa(q, k, v, **kw):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, **kw)


def _call(learner, q, k, v, what):
    return as_tensor(learner.causal_attention(q, k, v), what, shape=tuple(q.shape), dtype=q.dtype)


def _with_zero_vectors(q, k):
    """The same inputs with query 0 and the middle key set to zero: some allowed logits are exactly 0."""
    q, k = q.clone(), k.clone()
    q[..., 0, :] = 0
    k[..., k.shape[-2] // 2, :] = 0
    return q, k


def _top_logit(q, k) -> float:
    T, d = q.shape[-2], q.shape[-1]
    allowed = ~torch.ones(T, T, dtype=torch.bool).triu(1)
    return float((torch.einsum("bhtd,bhsd->bhts", q.double(), k.double()) / math.sqrt(d))[..., allowed].abs().max())


def _bad_rows(got) -> str:
    rows = sorted({int(t) for t in torch.nonzero(~torch.isfinite(got).all(dim=-1))[:, -1].tolist()})
    return _("query row(s) {rows}", rows=str(rows[:6]) + (" ..." if len(rows) > 6 else ""))


MASK_NAN_HINT = _(
    "this is not overflow. A softmax row is NaN when all its keys are masked "
    "(the diagonal masked too, a wrong triangle, scores == 0 treated as "
    "masked) or when the mask puts +inf or 0 * -inf in it; mask only keys s "
    "> t, with -inf"
)


def _fail_non_finite(learner, got, q, k, v, what):
    """NaN/inf on ordinary logits is the mask's doing; only large logits point at exp's overflow.
    On large logits the same q, k scaled down to logits below 1 tell the two apart."""
    counts = _("{bad} non-finite of {numel}", bad=int((~torch.isfinite(got)).sum()), numel=got.numel())
    top = _top_logit(q, k)
    limit = 80.0 if q.dtype == torch.float32 else 700.0
    if top < limit:
        fail(
            _("{what} contains NaN/inf", what=what),
            _("finite values"),
            counts,
            hint=_(
                "NaN/inf in {_bad_rows} although no logit exceeds {top:.3g}: {why}",
                _bad_rows=_bad_rows(got),
                top=top,
                why=MASK_NAN_HINT,
            ),
        )
    before = learner.last_call
    c = math.sqrt(1.0 / top)
    small = learner.causal_attention(q * c, k * c, v)
    if (
        isinstance(small, torch.Tensor)
        and small.is_floating_point()
        and tuple(small.shape) == tuple(q.shape)
        and not bool(torch.isfinite(small).all())
    ):
        fail(
            _("{what} contains NaN/inf, and so does the same input scaled down to logits below 1", what=what),
            _("finite values"),
            _(
                "{sum} non-finite of {numel} at logits below 1",
                sum=int((~torch.isfinite(small)).sum()),
                numel=small.numel(),
            ),
            hint=_("NaN/inf in {_bad_rows} at small logits: {why}", _bad_rows=_bad_rows(small), why=MASK_NAN_HINT),
        )
    blame(learner, before)  # the failing input is the large one
    fail(
        _("{what} contains NaN/inf", what=what),
        _("finite values"),
        counts,
        hint=_(
            "NaN/inf in {_bad_rows} with logits up to {top:.3g} (fine when scaled "
            "down): exp overflows on large logits; subtract each row's maximum "
            "before exp (or use torch.softmax)",
            _bad_rows=_bad_rows(got),
            top=top,
        ),
    )


def _expect_matches(
    learner,
    q,
    k,
    v,
    what,
    atol,
    hint_if_close="",
    hint_if_far=None,
):
    """The learner's output vs SDPA on the same inputs; the hint depends on how far off it is."""
    hint_if_far = hint_if_far or _("out = softmax over keys of (QK^T / sqrt(d)) with future keys at -inf, times V")
    got = learner.causal_attention(q, k, v)
    if (
        isinstance(got, torch.Tensor)
        and got.is_floating_point()
        and tuple(got.shape) == tuple(q.shape)
        and not bool(torch.isfinite(got).all())
    ):
        _fail_non_finite(learner, got, q, k, v, what)
    want = _sdpa(q, k, v)
    got = as_tensor(got, what, shape=tuple(want.shape), dtype=want.dtype)
    close = bool(((got - want).abs() <= 1e-4).all())
    expect_close(got, want, what, atol=atol, hint=hint_if_close if close else hint_if_far)


# what each input dtype is held to against SDPA, and the hint when it is close but not that close
PRECISION = {
    torch.float32: (
        1e-6,
        _(
            "close, but not to float32 precision: keep every step in the input "
            "dtype, subtract the row max before exp, normalize by the row sum"
        ),
    ),
    torch.float64: (
        1e-12,
        _(
            "close, but not to float64 precision: compute float64 inputs in float64 "
            "all the way (no float32 masks, constants or intermediates)"
        ),
    ),
}


def _expect_matches_in(learner, dtype, shape, seed):
    """Uniform inputs in ``dtype``, then the same with a query and a key all zeros (logits exactly 0)."""
    atol, hint = PRECISION[dtype]
    name = str(dtype).removeprefix("torch.")
    q, k, v = _uniform(shape, dtype, seed)
    what = _("{name} causal_attention on shape {shape}", name=name, shape=shape)
    _expect_matches(learner, q, k, v, what, atol=atol, hint_if_close=hint)
    q, k = _with_zero_vectors(q, k)
    _expect_matches(
        learner,
        q,
        k,
        v,
        _(
            "{name} causal_attention on shape {shape} with query 0 and key {value} all zeros (logits exactly 0)",
            name=name,
            shape=shape,
            value=shape[2] // 2,
        ),
        atol=atol,
        hint_if_close=hint,
    )


@settings(max_examples=25)
@given(strategies.attention_shapes(), strategies.seeds)
def test_float32_matches_sdpa(learner, shape, seed):
    _expect_matches_in(learner, torch.float32, shape, seed)


@settings(max_examples=25)
@given(strategies.attention_shapes(), strategies.seeds)
def test_float64_matches_sdpa(learner, shape, seed):
    _expect_matches_in(learner, torch.float64, shape, seed)


@settings(max_examples=20)
@given(strategies.attention_shapes(min_T=2, max_T=32), strategies.seeds, st.data())
def test_no_future_leak(learner, shape, seed, data):
    T = shape[2]
    s = data.draw(st.integers(0, T - 2), label="last unchanged position s")
    q, k, v = _uniform(shape, torch.float64, seed)
    q2, k2, v2 = (x.clone() for x in (q, k, v))
    for x, new in zip((q2, k2, v2), _uniform(shape, torch.float64, seed + 1), strict=True):
        x[..., s + 1 :, :] = new[..., s + 1 :, :]  # the future: positions > s
    before = _call(learner, q, k, v, "causal_attention")[..., : s + 1, :]
    after = _call(learner, q2, k2, v2, "causal_attention")[..., : s + 1, :]
    diff = (before - after).abs().amax(dim=(0, 1, 3))  # per position t <= s
    if bool((diff > 1e-12).any()):
        t = int(torch.nonzero(diff > 1e-12)[0])
        fail(
            _(
                "changing q/k/v only at positions > {s} (shape {shape}) changed the output at position {t}",
                s=s,
                shape=shape,
                t=t,
            ),
            _("outputs at positions <= s unchanged"),
            _("changed by up to {max:.3g}", max=float(diff.max())),
            hint=_("mask keys s > t (the upper triangle, triu(1)) with -inf before a softmax over the key axis"),
        )


@settings(max_examples=20)
@given(strategies.attention_shapes(max_T=16, max_d=24, d_at_least_T=True), strategies.seeds)
def test_attention_weights(learner, shape, seed):
    b, h, T, d = shape
    q, k = _uniform(shape, torch.float64, seed, n=2)
    v = torch.eye(T, d, dtype=torch.float64).expand(b, h, T, d).contiguous()  # out[..., :T] = weights
    got = _call(learner, q, k, v, _("causal_attention with v = identity, shape {shape}", shape=shape))
    want = _sdpa(q, k, v)
    if bool(((got - want).abs() <= 1e-6).all()):  # semantics here; precision is float64_matches_sdpa's job
        return
    weights = got[..., :T]
    logits = torch.einsum("bhtd,bhsd->bhts", q, k).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), -math.inf)
    suspects = [
        (_sdpa(q, k, v, scale=1.0)[..., :T], _("these are softmax(QK^T) without the 1/sqrt(d) scale")),
        (
            torch.softmax(logits / math.sqrt(d), dim=-2),
            _("these weights are normalized over the query axis (columns sum to 1); softmax over keys, dim=-1"),
        ),
        (torch.softmax(logits, dim=-2), _("normalized over the query axis and missing 1/sqrt(d)")),
    ]
    hint = next((msg for w, msg in suspects if bool(((weights - w).abs() <= 1e-6).all())), "")
    if not hint and not bool(((weights.sum(-1) - 1).abs() <= 1e-6).all()):
        hint = _("each query's weights over the keys must sum to 1 (softmax over the key axis)")
    err = (got - want).abs().amax(dim=-1)  # worst query row
    bi, hi, t = (int(i) for i in torch.nonzero(err == err.max())[0])
    fail(
        _(
            "attention weights (the output for v = identity, shape {shape}) differ "
            "from SDPA's; weights of query t={t} (batch {bi}, head {hi}) over keys "
            "0..{value}",
            shape=shape,
            t=t,
            bi=bi,
            hi=hi,
            value=T - 1,
        ),
        [round(x, 4) for x in want[bi, hi, t, :T].tolist()],
        [round(x, 4) for x in weights[bi, hi, t].tolist()],
        hint or _("weights = softmax over keys of (QK^T / sqrt(d)) with future keys masked"),
    )


@settings(max_examples=20)
@given(strategies.attention_shapes(max_T=32), strategies.seeds, st.sampled_from([torch.float32, torch.float64]))
def test_large_logits(learner, shape, seed, dtype):
    # Scale q and k so the largest unmasked logit is far past exp's overflow (float32 ~88,
    # float64 ~709): the course's "x30" made certain for every drawn shape.
    T, d = shape[2], shape[3]
    target, atol = (300.0, 1e-3) if dtype == torch.float32 else (3000.0, 1e-6)  # stability, not precision
    q, k, v = _uniform(shape, torch.float64, seed)
    allowed = ~torch.ones(T, T, dtype=torch.bool).triu(1)
    top = (torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d))[..., allowed].max()
    if top < 0:
        k, top = -k, (torch.einsum("bhtd,bhsd->bhts", q, -k) / math.sqrt(d))[..., allowed].max()
    c = math.sqrt(target / max(float(top), 1e-6))
    q, k, v = (q * c).to(dtype), (k * c).to(dtype), v.to(dtype)
    _expect_matches(
        learner,
        q,
        k,
        v,
        _(
            "{removeprefix} causal_attention with logits up to {target:g} (shape {shape})",
            removeprefix=str(dtype).removeprefix("torch."),
            target=target,
            shape=shape,
        ),
        atol=atol,
        hint_if_close=_("large logits amplify rounding: subtract the row max, don't clamp"),
        hint_if_far=_(
            "large logits: subtract each row's max before exp; clamping the logits "
            "changes the softmax (if ordinary inputs fail too, fix those first)"
        ),
    )


# ------------------------------------------------------------------ mistakes named by what the answer does
from grader.checks.support.mistakes import gives, mistake  # noqa: E402

_P1 = ("float32_matches_sdpa", "float64_matches_sdpa")
_PROBE = (tuple(_uniform((1, 2, 5, 3), torch.float64, 11)), {})  # T = 5 > 1, heads 2 != head_dim 3


def _manual(q, k, v, scale=None, allowed=lambda T: torch.ones(T, T, dtype=torch.bool).tril(), dim=-1):
    T, d = q.shape[-2], q.shape[-1]
    s = (q @ k.transpose(-2, -1)) * (1 / math.sqrt(d) if scale is None else scale)
    return torch.softmax(s.masked_fill(~allowed(T), float("-inf")), dim=dim) @ v


for _wrong, _zh, _en in [
    (lambda q, k, v: _manual(q, k, v, scale=1.0), "没有乘缩放因子 1/sqrt(d)", "leaves out the 1/sqrt(d) scale"),
    (
        lambda q, k, v: _manual(q, k, v, scale=1 / q.shape[-1]),
        "除以了 d 而不是 sqrt(d)",
        "divides by d, not by sqrt(d)",
    ),
    (
        lambda q, k, v: _manual(q, k, v, allowed=lambda T: torch.ones(T, T, dtype=torch.bool)),
        "没有因果 mask：每个位置都看到了后面的位置",
        "applies no causal mask: each position sees the later ones",
    ),
    (
        lambda q, k, v: _manual(q, k, v, allowed=lambda T: torch.ones(T, T, dtype=torch.bool).triu()),
        "mask 方向反了（转置）：位置 i 应只看 j <= i",
        "has the mask transposed: position i may attend only to j <= i",
    ),
    (
        lambda q, k, v: _manual(q, k, v, allowed=lambda T: torch.ones(T, T, dtype=torch.bool).tril(-1)),
        "连对角线也 mask 掉了：每个位置要能看到它自己",
        "masks the diagonal too: a position attends to itself",
    ),
    (
        lambda q, k, v: _manual(q, k, v, dim=-2),
        "softmax 沿错了轴（在查询上归一化）：每个查询对各个键的权重之和为 1",
        "normalizes over the queries (softmax on the wrong axis): each query's weights over the keys sum to 1",
    ),
]:
    mistake(*_P1, function="causal_attention", probe=_PROBE, zh=_zh, en=_en)(
        gives(_wrong, lambda q, k, v: _sdpa(q, k, v), rel=1e-5)
    )
