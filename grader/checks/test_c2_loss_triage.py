"""C2 — loss triage. Ground truth: real first losses of a small char GPT (grader/given/char_model.py),
with its shipped init (PyTorch's own) and with its output layer scaled up; torch's own cross_entropy running
silently on transposed labels; and traces (lr, gradient norm before clipping and at
optimizer.step()) recorded by the check from real short runs of the twenty-line loop with one line
removed, the removed line being the expected answer (part 3; part 2; part 7 §五.C question 2).

Verdicts are never recomputed with a threshold (the stub states none): each case is built to be
clearly of its kind (the shipped init is "ok" and a scaled head "too_high", checked as a premise
on the real loss; a drawn loss is placed within OK_GAP of ln V or at least FAR_GAP above or below
it; a grad-norm curve is drawn healthy as the course's script shows one, then spoiled by a late
spike far above it or a NaN), and its kind is the expected answer.

The contract's paths, and where each is exercised:
- missing_line: every single line missing and nothing missing ("none"), AND two lines missing
  at once, where either of them is right (the course orders no line before another) but "none"
  or a line that ran is not;
- shape_guard: matching shapes (None) and five wrong ones, transposed labels that torch runs;
- first_loss_verdict: real first losses of both inits and drawn (loss, V) pairs, clearly of their kind;
- grad_norm_curve: a healthy curve, one with a late spike or NaN, and one with +-inf in the first 5
  steps (non-finite anywhere is clearly unhealthy, not only NaN, not only where a spike would be).
"""

import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st

from grader.checks.support.checking import as_str, expect_equal, expect_raises, fail
from grader.checks.truth.first_loss import SMALL, real_first_loss, uniform_loss
from grader.checks.truth.loop_trace import LINES, real_trace
from grader.i18n import _

OK_GAP, FAR_GAP = 0.4, 2.5  # nats from ln V: what a fresh init gives (the course's 5.07 is +0.22; the shipped
# one, PyTorch's own init, measured +0.01 .. +0.31 over 300 seeds on 16 x 16 targets), and clearly not


@st.composite
def _first_losses(draw):
    """(first loss, V, verdict): a loss within OK_GAP of ln V, or at least FAR_GAP above or below it."""
    verdict = draw(st.sampled_from(["too_high", "ok", "too_low"]))
    vocab = draw(st.integers(20 if verdict == "too_low" else 2, 200_000))  # ln 20 = 3.0 > FAR_GAP
    ln_v = uniform_loss(vocab)
    gap = {
        "too_high": st.floats(FAR_GAP, 15.0),
        "ok": st.floats(-OK_GAP, OK_GAP),
        "too_low": st.floats(-ln_v, -FAR_GAP),
    }[verdict]
    return max(0.0, ln_v + draw(gap)), vocab, verdict


@settings(max_examples=4)
@given(st.integers(0, 2**31 - 1), st.floats(30, 200), _first_losses())
def test_first_loss_verdict(learner, seed, scale, drawn):
    ln_v = uniform_loss(SMALL.vocab_size)
    for head, label, want in (
        (1.0, _("the shipped init"), "ok"),
        (scale, _("the output layer scaled x{scale:.0f}", scale=scale), "too_high"),
    ):
        real = real_first_loss(seed, head)
        if not (abs(real - ln_v) < OK_GAP if want == "ok" else real - ln_v > FAR_GAP):  # the premise: a check error
            raise RuntimeError(
                _(
                    "C2 check: {label} gives a first loss of {real:.3f}, ln 128 = {ln_v:.3f}",
                    label=label,
                    real=real,
                    ln_v=ln_v,
                )
            )
        got = as_str(learner.first_loss_verdict(real, SMALL.vocab_size), f"first_loss_verdict({real:.3f}, 128)")
        expect_equal(
            got,
            want,
            _(
                "first_loss_verdict for the real first loss {real:.3f} of a char GPT with {label}",
                real=real,
                label=label,
            ),
            hint=_(
                "compare with ln V (ln 128 = {ln_v:.2f}): well above it means the logits start too large", ln_v=ln_v
            ),
        )
    loss, vocab, want = drawn
    expect_equal(
        learner.first_loss_verdict(loss, vocab),
        want,
        f"first_loss_verdict({loss}, {vocab})",
        hint=_("ln V = {uniform_loss:.4g}", uniform_loss=uniform_loss(vocab)),
    )


@st.composite
def _shape_cases(draw):
    B, V = draw(st.integers(2, 6)), draw(st.integers(2, 50))
    T = B + draw(st.integers(1, 4))  # T != B: transposed labels really are wrong
    good = ((B, T, V), (B, T))
    bad = draw(
        st.sampled_from(
            [
                ((B, T, V), (T, B)),
                ((B, T, V), (B * T,)),
                ((B, T, V), (B, T, 1)),
                ((B * T, V), (B, T)),
                ((B, T, V), (B, T + 1)),
            ]
        )
    )
    return good, bad


@settings(max_examples=20)
@given(_shape_cases())
def test_shape_guard(learner, cases):
    good, (lg, lb) = cases
    expect_equal(
        learner.check_loss_shapes(good[0], good[1]), None, _("check_loss_shapes{good} (matching shapes)", good=good)
    )
    logits, labels = torch.zeros(lg), torch.zeros(lb, dtype=torch.long)
    if lg[:-1] != lb and logits.numel() // lg[-1] == labels.numel():
        F.cross_entropy(logits.view(-1, lg[-1]), labels.view(-1))  # the premise: torch runs it silently
    with expect_raises("ValueError", _("check_loss_shapes({lg}, {lb}) must raise ValueError", lg=lg, lb=lb)):
        learner.check_loss_shapes(lg, lb)


def trace_sign(missing: str, trace: dict) -> str:
    """What this trace shows of the line left out, in its own numbers (a hint: it names the line)."""
    norms, at, lr = trace["grad_norm"], trace["grad_norm_at_step"], trace["lr"]
    if missing == "scheduler_step":
        return _(
            "lr is {lr:.3g} at every step ({lr2} steps): the schedule never advances (no scheduler.step())",
            lr=lr[0],
            lr2=len(lr),
        )
    if missing == "clip_grad_norm":
        return _(
            "grad_norm_at_step equals grad_norm, up to {at:.3g} > 1: nothing scaled "
            "the gradient down before the step (no clip_grad_norm_)",
            at=max(at),
        )
    if missing == "zero_grad":
        return _(
            "grad_norm on the same batch: {norms:.3g} at the first step, then "
            "{norms2:.3g} .. {norms3:.3g}: a jump after the first step, the earlier "
            "step's gradient added in (no zero_grad)",
            norms=norms[0],
            norms2=norms[1],
            norms3=max(norms[1:]),
        )
    return _(
        "lr changes ({lr:.3g} -> {lr2:.3g}), grad_norm_at_step stays at {at:.3g} "
        "or below and grad_norm does not jump after the first step: nothing is "
        "missing",
        lr=lr[0],
        lr2=lr[-1],
        at=max(at),
    )


TWO_MISSING = [(a, b) for i, a in enumerate(LINES[1:]) for b in LINES[i + 2 :]]


@settings(max_examples=6)
@given(st.integers(0, 2**31 - 1), st.permutations(LINES), st.sampled_from(TWO_MISSING))
def test_missing_line(learner, seed, order, two):
    for missing in order[:2]:
        trace = real_trace(seed, missing)
        got = as_str(learner.missing_line(trace), "missing_line(trace)")
        expect_equal(
            got,
            missing,
            _("missing_line on a real run with {missing} removed: {trace}", missing=repr(missing), trace=trace),
            hint=trace_sign(missing, trace),
        )
    # Two lines missing: either one is a line that was left out.
    trace = real_trace(seed, two)
    got = as_str(learner.missing_line(trace), "missing_line(trace)")
    if got not in two:
        fail(
            _(
                "missing_line on a real run with both {two} and {two2} removed: {trace}",
                two=repr(two[0]),
                two2=repr(two[1]),
                trace=trace,
            ),
            _("{left} or {right}", left=repr(two[0]), right=repr(two[1])),
            repr(got),
            hint=_("each missing line leaves its own sign in the trace, whatever else is missing too"),
        )


# Healthy by construction, as the course's script shows one (part 7 §五.C q2, follow-up: ~0.3, the
# first step 2.0): a first step 2-3, then values 0.2-0.35, so the first is over 5x the median (a rule
# that reads it as a spike is caught); spoiled at step >= 5 by a NaN or a value 6-50x the largest one,
# and (another curve) by an infinite value within the first 5 steps: NaN and +-inf alike.
@given(
    st.lists(st.floats(0.2, 0.35), min_size=6, max_size=40),
    st.floats(2.0, 3.0),
    st.floats(6, 50),
    st.integers(5, 39),
    st.booleans(),
    st.integers(0, 4),
    st.sampled_from([float("inf"), float("-inf")]),
)
def test_grad_norm_curve(learner, late, first, spike, at, nan, early_at, inf):
    healthy = [first] + late
    bad = list(healthy)
    bad[min(at, len(bad) - 1)] = float("nan") if nan else spike * max(healthy)
    early = list(healthy)
    early[early_at] = inf
    for norms, want in ((healthy, True), (bad, False), (early, False)):
        expect_equal(
            learner.grad_norm_healthy(norms),
            want,
            f"grad_norm_healthy({[round(v, 3) for v in norms]})",
            hint=_(
                "a large first step is normal, then small steady values; a NaN, or a "
                "later spike far above the rest, is not"
            ),
        )


# ------------------------------------------------------------------ named mistakes (issue 29)
import math  # noqa: E402

from grader.checks.support.mistakes import mistake  # noqa: E402


def _verdict(loss: float, reference: float) -> str:
    gap = loss - reference
    return "too_high" if gap > 1 else "too_low" if gap < -1 else "ok"


# each probe: a first loss on which that wrong reference gives another verdict than ln V does
for _wrong, _loss, _zh, _en in [
    (
        math.log2,
        6.5,
        "拿 log2 V 比较了：首步 loss 的参照是 ln V（自然对数，nats）",
        "compares with log2 V: the first loss's reference is ln V (natural log, nats)",
    ),
    (
        math.log10,
        3.5,
        "拿 log10 V 比较了：首步 loss 的参照是 ln V（自然对数，nats）",
        "compares with log10 V: the first loss's reference is ln V (natural log, nats)",
    ),
    (
        float,
        6.5,
        "拿词表大小 V 本身比较了：首步 loss 的参照是 ln V",
        "compares with the vocabulary size V itself: the first loss's reference is ln V",
    ),
]:
    mistake("first_loss_verdict", function="first_loss_verdict", probe=((_loss, 128), {}), zh=_zh, en=_en)(
        lambda got, loss, v, _w=_wrong: got == _verdict(loss, _w(v)) != _verdict(loss, math.log(v))
    )
