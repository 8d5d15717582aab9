"""X3 — autocast dtypes. Ground truth: the check runs the same Linear forward and cross-entropy
under CPU ``torch.autocast(dtype=torch.bfloat16)`` in its own process and compares the dtypes and
values the learner's experiment returns (part 4, mixed precision; part 7 §四 and §五.D)."""

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support.checking import as_tensor, expect_close, fail
from grader.checks.truth.autocast import cpu_bf16_autocast
from grader.i18n import _


@st.composite
def _cases(draw):
    b, d_in, d_out = draw(st.integers(1, 16)), draw(st.integers(1, 64)), draw(st.integers(2, 32))
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    x, w, bias = (
        torch.randn(b, d_in, generator=g),
        torch.randn(d_out, d_in, generator=g),
        torch.randn(d_out, generator=g),
    )
    return x, w / d_in**0.5 + 1e-3, bias, torch.randint(0, d_out, (b,), generator=g)


def _run(learner, case) -> tuple[dict, dict]:
    got = learner.autocast_experiment(*case)
    if type(got) is not dict or set(got) != {"weight_after", "logits", "loss"}:
        fail(
            _("autocast_experiment must return a dict with keys weight_after, logits, loss"),
            _("that dict"),
            sorted(got) if type(got) is dict else type(got).__name__,
        )
    return got, cpu_bf16_autocast(*case)


@settings(max_examples=10)
@given(_cases())
def test_weight_dtype(learner, case):
    got, want = _run(learner, case)
    w = as_tensor(got["weight_after"], "weight_after", shape=tuple(want["weight_after"].shape))
    if w.dtype != torch.float32:
        fail(
            _("the layer's weight after a forward under autocast"),
            torch.float32,
            w.dtype,
            hint=_("autocast casts a temporary bf16 copy for the matmul; the parameter stays fp32"),
        )
    if not torch.equal(w, want["weight_after"]):
        fail(
            _("the weight after the forward must be exactly the fp32 weight given (not rounded to bf16)"),
            _("bit-identical fp32 weight"),
            _("max diff {max:.3g}", max=float((w - want["weight_after"]).abs().max())),
        )


@settings(max_examples=10)
@given(_cases())
def test_logits_dtype(learner, case):
    got, want = _run(learner, case)
    expect_close(
        got["logits"],
        want["logits"],
        _("logits = linear(x) under CPU autocast(bfloat16)"),
        atol=1e-2,
        rtol=1e-2,
        hint=_("a matmul under autocast runs in bf16 and returns a bf16 tensor"),
    )


@settings(max_examples=10)
@given(_cases())
def test_loss_dtype(learner, case):
    got, want = _run(learner, case)
    expect_close(
        got["loss"],
        want["loss"],
        _("cross_entropy(logits, targets) under CPU autocast(bfloat16)"),
        atol=1e-2,
        rtol=1e-2,
        hint=_("autocast runs the loss (a reduction) in fp32 even on bf16 logits"),
    )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import mistake  # noqa: E402


def _probe_case():
    g = torch.Generator().manual_seed(29)
    x, w, bias = torch.randn(4, 8, generator=g), torch.randn(6, 8, generator=g), torch.randn(6, generator=g)
    return x, w / 8**0.5 + 1e-3, bias, torch.randint(0, 6, (4,), generator=g)


_PROBE = (_probe_case(), {})


def _dtype_of(got, key):
    value = got.get(key) if type(got) is dict else None
    return value.dtype if isinstance(value, torch.Tensor) else None


mistake(
    "weight_dtype",
    function="autocast_experiment",
    probe=_PROBE,
    zh="参数本身变成了 bf16（把层转成了 bf16）：autocast 只为矩阵乘临时转一份 bf16，参数仍是 fp32 主权重",
    en="makes the parameter itself bf16 (the layer cast to bf16): autocast casts a temporary bf16 copy for the "
    "matmul, "
    "the parameter stays the fp32 master weight",
)(lambda got, *case: _dtype_of(got, "weight_after") == torch.bfloat16)
mistake(
    "logits_dtype",
    function="autocast_experiment",
    probe=_PROBE,
    zh="logits 是 fp16：题目的 autocast 是 CPU 上的 bfloat16",
    en="returns fp16 logits: the question's autocast is bfloat16 on the CPU",
)(lambda got, *case: _dtype_of(got, "logits") == torch.float16)
mistake(
    "logits_dtype",
    function="autocast_experiment",
    probe=_PROBE,
    zh='logits 是 fp32：在 CPU 的 autocast(bfloat16) 下矩阵乘返回 bf16（没开 autocast、device_type 写成 "cuda"、'
    "或事后 .float() 都会得到 fp32）",
    en="returns fp32 logits: under CPU autocast(bfloat16) a matmul returns bf16 (autocast off, device_type "
    '"cuda" on CPU '
    "tensors, or a .float() after it all give fp32)",
)(lambda got, *case: _dtype_of(got, "logits") == torch.float32)
mistake(
    "loss_dtype",
    function="autocast_experiment",
    probe=_PROBE,
    zh="loss 是 bf16：在 autocast 里 cross_entropy（reduction）按 fp32 算，在 autocast 外对 bf16 logits 求 loss "
    "才是 bf16",
    en="returns a bf16 loss: inside autocast cross_entropy (a reduction) runs in fp32; only outside it does a loss "
    "of bf16 logits stay bf16",
)(lambda got, *case: _dtype_of(got, "loss") == torch.bfloat16)
