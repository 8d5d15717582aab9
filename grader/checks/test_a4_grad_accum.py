"""A4 — gradient accumulation. Ground truth: real torch autograd in this process.

repeated_backward: the scalar loss L = (w*x - 1)^2 backpropagated k times here, and the
course's case w=3, x=2, k=3 -> 60 as a second check.
matches_full_batch: the same float64 tiny LM (grader/drivers/a4_grad_accum.py, same config
and seed) built here; the reference is one backward, here, of the mean cross-entropy over all
non-ignored tokens of all the micro-batches (the full batch). The learner's accumulated
gradients, read back from the model after its call, must match it within 1e-6.
The contract's paths: k = 1..4 micro-batches of different lengths, rows and valid-token counts;
one micro-batch with no valid label (an explicit example: its mean would be NaN); stale gradients
on entry; every parameter's gradient compared (1e-6). optimizer.step() is forbidden and watched.
"One forward per micro-batch" rests on the data, not on watching the learner: the micro-batches
have pairwise different sequence lengths and the model mixes each whole row (its logits change
if a row is padded), so no forward over rows of two micro-batches can reach the reference
gradient. The driver's forward hook (forgeable) only adds a clearer reason to fail.
"""

import math

import torch
import torch.nn.functional as F
from hypothesis import example, given, settings

from grader.checks.support import strategies
from grader.checks.support.checking import as_number, expect_close, fail
from grader.checks.truth.grad_accumulation import grad_after_k_backwards
from grader.i18n import _

ATOL = 1e-6
# A micro-batch with no valid label at all (the stub allows it): a per-micro-batch mean is 0/0 there.
ONE_ALL_MASKED = {
    "config": {"vocab_size": 24, "n_embd": 6},
    "seed": 3,
    "sizes": [2, 2, 1],
    "lengths": [4, 6, 3],
    "mask_rates": [0.3, 1.0, 0.0],
    "data_seed": 5,
}
# Shown first: three micro-batches of different lengths and valid-token counts.
COURSE_LIKE = {
    "config": {"vocab_size": 32, "n_embd": 8},
    "seed": 7,
    "sizes": [2, 1, 3],
    "lengths": [5, 3, 7],
    "mask_rates": [0.3, 0.0, 0.6],
    "data_seed": 11,
}


@given(strategies.scalar_grad_cases)
def test_repeated_backward(learner, case):
    for w, x, k in [(3.0, 2.0, 3), case]:  # the course's example first
        what = f"grad_after_k_backwards(w={w}, x={x}, k={k})"
        got = as_number(learner.grad_after_k_backwards(w, x, k), what)
        expected = grad_after_k_backwards(w, x, k)
        if not math.isclose(got, expected, rel_tol=1e-5, abs_tol=1e-6):
            single = grad_after_k_backwards(w, x, 1)
            fail(
                what,
                expected,
                got,
                _(
                    "backward() adds into .grad: k calls give k x the single gradient "
                    "({single:g} here); nothing may clear it in between",
                    single=single,
                ),
            )


def _make_batches(case: dict):
    g = torch.Generator().manual_seed(case["data_seed"])
    V = case["config"]["vocab_size"]
    micro = []
    for b, T, rate in zip(case["sizes"], case["lengths"], case["mask_rates"], strict=True):
        ids = torch.randint(0, V, (b, T), generator=g)
        labels = torch.randint(0, V, (b, T), generator=g)
        labels[torch.rand(b, T, generator=g) < rate] = -100
        micro.append({"input_ids": ids, "labels": labels})
    if all(bool((mb["labels"] == -100).all()) for mb in micro):  # the full batch needs one target
        micro[-1]["labels"][0, 0] = 0
    T = case["lengths"][0]
    stale = {"input_ids": torch.randint(0, V, (2, T), generator=g), "labels": torch.randint(0, V, (2, T), generator=g)}
    return micro, stale


def _full_batch_grads(case: dict, micro: list) -> dict:
    """One backward of the mean cross-entropy over every non-ignored token of the full batch."""
    from grader.drivers.a4_grad_accum import build_model

    model = build_model(case["config"], case["seed"])
    token_losses, targets = [], []
    for mb in micro:  # rows of different lengths: each micro-batch's logits, all tokens pooled
        logits = model(mb["input_ids"])
        token_losses.append(
            F.cross_entropy(
                logits.reshape(-1, logits.shape[-1]), mb["labels"].reshape(-1), ignore_index=-100, reduction="none"
            )
        )
        targets.append(mb["labels"].reshape(-1))
    valid = torch.cat(targets) != -100
    torch.cat(token_losses)[valid].mean().backward()
    return {name: p.grad for name, p in model.named_parameters()}


def _mixed_forwards(shapes, micro: list) -> list:
    """Forward calls (seen by the driver's hook) whose rows fit in no single micro-batch."""
    fits = [(mb["input_ids"].shape[0], mb["input_ids"].shape[1]) for mb in micro]
    try:
        seen = [(int(s[0]), int(s[1])) for s in shapes]
    except (TypeError, ValueError, IndexError):
        return []  # the hook's record is not trusted anyway: the gradients decide
    return [s for s in seen if not any(s[0] <= b and s[1] == T for b, T in fits)]


@settings(max_examples=8, deadline=None)
@given(strategies.accumulation_cases())
@example(ONE_ALL_MASKED)
@example(COURSE_LIKE)
def test_matches_full_batch(learner, case):
    micro, stale = _make_batches(case)
    valid = [int((mb["labels"] != -100).sum()) for mb in micro]
    shapes = [tuple(mb["input_ids"].shape) for mb in micro]
    what = _(
        "accumulate_grads over micro-batches of (rows, T) {shapes} with {valid} valid tokens",
        shapes=shapes,
        valid=valid,
    )
    out = learner.drive(
        "grader.drivers.a4_grad_accum:run",
        config=case["config"],
        seed=case["seed"],
        micro_batches=micro,
        stale_batch=stale,
    )
    expected = _full_batch_grads(case, micro)

    mixed = _mixed_forwards(out.get("forward_shapes") or [], micro) if type(out) is dict else []
    if mixed:  # an extra reason to fail only: the hook lives in the learner's process
        fail(
            _("{what}: (rows, T) of your forward calls", what=what),
            _("each within one micro-batch, {shapes}", shapes=shapes),
            mixed,
            _(
                "accumulation runs the model on one micro-batch at a time, never on the "
                "concatenation (padded or not): only one micro-batch's activations may "
                "be alive at a time"
            ),
        )
    grads = out.get("grads") if type(out) is dict else None
    if type(grads) is not dict:
        fail(_("{what}: gradients", what=what), _("a dict of parameter name -> tensor"), type(grads).__name__)
    for name, ref in expected.items():
        got = grads.get(name)
        if got is None:
            fail(f"{what}: {name}.grad", _("a gradient tensor"), None, _("every parameter gets a gradient"))
        expect_close(
            got,
            ref,
            f"{what}: {name}.grad",
            atol=ATOL,
            hint=_(
                "mean over all non-ignored tokens of the FULL batch: zero_grad once "
                "before the micro-batches, never inside; run the model on each "
                "micro-batch on its own (they have different lengths: padding changes "
                "this model's logits); scale each micro-batch's summed loss by 1/(valid "
                "tokens of the full batch)"
            ),
        )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import close, mistake  # noqa: E402

mistake(
    "repeated_backward",
    function="grad_after_k_backwards",
    probe=((3.0, 2.0, 3), {}),
    zh="k 次 backward 后只剩一次的梯度：中间把 .grad 清掉了（或每次新建了张量、用了 autograd.grad）；backward 是往 "
    ".grad 里累加的",
    en="keeps one backward's gradient after k: .grad was cleared in between (or the tensor made anew, or "
    "autograd.grad "
    "used); backward adds into .grad",
)(
    lambda got, w, x, k: (
        k > 1 and not close(grad_after_k_backwards(w, x, 1), 0.0) and close(got, grad_after_k_backwards(w, x, 1), 1e-5)
    )
)
