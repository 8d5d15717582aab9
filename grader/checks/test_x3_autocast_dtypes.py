"""X3 — autocast dtypes. Ground truth: the check runs the same Linear forward and cross-entropy
under CPU ``torch.autocast(dtype=torch.bfloat16)`` in its own process and compares the dtypes and
values the learner's experiment returns (part 4, mixed precision; part 7 §四 and §五.D)."""

import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks.support.checking import as_tensor, expect_close, fail


@st.composite
def _cases(draw):
    b, d_in, d_out = draw(st.integers(1, 16)), draw(st.integers(1, 64)), draw(st.integers(2, 32))
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    x, w, bias = torch.randn(b, d_in, generator=g), torch.randn(d_out, d_in, generator=g), torch.randn(d_out, generator=g)
    return x, w / d_in**0.5 + 1e-3, bias, torch.randint(0, d_out, (b,), generator=g)


def truth(x, w, bias, targets) -> dict:
    linear = torch.nn.Linear(w.shape[1], w.shape[0])
    with torch.no_grad():
        linear.weight.copy_(w)
        linear.bias.copy_(bias)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = linear(x)
        loss = F.cross_entropy(logits, targets)
    if linear.weight.dtype != torch.float32 or logits.dtype != torch.bfloat16 or loss.dtype != torch.float32:
        raise RuntimeError(f"torch's CPU autocast changed: {linear.weight.dtype}, {logits.dtype}, {loss.dtype}")
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(), "loss": loss.detach()}


def _run(learner, case) -> tuple[dict, dict]:
    got = learner.autocast_experiment(*case)
    if type(got) is not dict or set(got) != {"weight_after", "logits", "loss"}:
        fail("autocast_experiment must return a dict with keys weight_after, logits, loss", "that dict",
             sorted(got) if type(got) is dict else type(got).__name__)
    return got, truth(*case)


@settings(max_examples=10)
@given(_cases())
def test_weight_dtype(learner, case):
    got, want = _run(learner, case)
    w = as_tensor(got["weight_after"], "weight_after", shape=tuple(want["weight_after"].shape))
    if w.dtype != torch.float32:
        fail("the layer's weight after a forward under autocast", torch.float32, w.dtype,
             hint="autocast casts a temporary bf16 copy for the matmul; the parameter stays fp32")
    if not torch.equal(w, want["weight_after"]):
        fail("the weight after the forward must be exactly the fp32 weight given (not rounded to bf16)",
             "bit-identical fp32 weight", f"max diff {float((w - want['weight_after']).abs().max()):.3g}")


@settings(max_examples=10)
@given(_cases())
def test_logits_dtype(learner, case):
    got, want = _run(learner, case)
    expect_close(got["logits"], want["logits"], "logits = linear(x) under CPU autocast(bfloat16)", atol=1e-2, rtol=1e-2,
                 hint="a matmul under autocast runs in bf16 and returns a bf16 tensor")


@settings(max_examples=10)
@given(_cases())
def test_loss_dtype(learner, case):
    got, want = _run(learner, case)
    expect_close(got["loss"], want["loss"], "cross_entropy(logits, targets) under CPU autocast(bfloat16)",
                 atol=1e-2, rtol=1e-2, hint="autocast runs the loss (a reduction) in fp32 even on bf16 logits")
