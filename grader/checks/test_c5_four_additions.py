"""C5 — the four additions, each detected by measuring the learner's loop. The loop has P2's
contract on P2's model, so the four key points read it the way P2's do, with their own draws:
the ground truth and the measurements are in grader/checks/truth/training_loop.py (the loss and
the weights after a step of the check's SGD(lr=1); the lr a real AdamW runs with under torch's
warmup and cosine schedulers). The follow-up runs one accumulated step of the small char GPT
with that SGD(lr=1) (grader/drivers/c5_four_additions.py): the weights after it must be the
initial weights minus the clipped full-batch gradient computed here, and the reported grad_norm
the full-batch norm before clipping. Its model's lm_head starts HEAD_SCALE times larger: with
PyTorch's own init the small model's gradients stay under clip_grad_norm_'s 1.0 (0.6-1.0 on these
batches), so a clip anywhere, after every micro-batch or not at all, would give the same step;
scaled x12 the first micro-batch's share alone (the gradient of its loss / k, k <= 4) measured
1.5-3.1 over 300 draws, so every partial sum is past max_norm and where the clip sits shows in the
step (a premise the check asserts). How often optimizer.step() and model(x) ran is counted in
the learner's process: only a reason to fail (part 3; part 7 §五.C question 5). The pass rests on
the weights and the grad_norm, both compared here with this process's own step; a module that
forged the counts would still have to hand in exactly that step. The one property only the
counts show is "one forward per micro-batch": the micro-batches here have the same shape, and a
forward over their concatenation gives the same gradient (A4's check is the one that makes it
measurable, with micro-batches a concatenation cannot reproduce).

Contract paths (as P2's): the clip is read on both branches of train_step (fp32 and
amp_dtype=bfloat16), the schedule's loop on a drawn branch, the schedule with the clipped or the
unclipped gradient (a missing clip is the clip key point's failure, not the scheduler's)."""

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import expect_close, fail
from grader.checks.truth import training_loop as loop
from grader.drivers.c5_four_additions import follow_up_model
from grader.drivers.p2_training_loop import SMALL
from grader.given.char_model import encode, get_batch, make_corpus
from grader.i18n import _

HEAD_SCALE = 12.0  # the follow-up's model: gradients past max_norm on every micro-batch (see above)


@settings(max_examples=2)
@given(strategies.p2_runs)
def test_amp_step(learner, run):
    loop.expect_autocast(learner, *run)


@settings(max_examples=2)
@given(strategies.p2_runs)
def test_loss_value(learner, run):
    loop.expect_float_logits_ignore_index(learner, *run)


@settings(max_examples=2)
@given(strategies.p2_runs)
def test_step_gradient(learner, run):
    loop.expect_clipped(learner, *run)
    loop.expect_own_gradients(learner, *run)  # several steps per branch, .grad never cleared by the driver


@settings(max_examples=10)
@given(strategies.lr_schedules(), st.data())
def test_learning_rates(learner, sched, data):
    loop.expect_schedule_drawn(learner, sched, data)


@settings(max_examples=3)
@given(strategies.p2_runs, st.integers(2, 4), st.integers(1, 3))
def test_accumulated_step(learner, run, k, micro):
    seed, data_seed = run
    data = encode(make_corpus(5_000, seed=data_seed % 10_000))
    g = torch.Generator().manual_seed(data_seed)
    batches = [get_batch(data, micro, SMALL.block_size, g) for _ in range(k)]
    share = loop.reference_step(follow_up_model(seed % 10_000, HEAD_SCALE), batches[0]).norm / k
    if not share > 1.0:  # where the clip sits must change the step: a check error, not the learner's
        raise AssertionError(
            _("check error: the first micro-batch's share of the gradient is {share:.2f} <= 1.0", share=share)
        )
    out = learner.drive(
        "grader.drivers.c5_four_additions:run_accumulated",
        seed=seed % 10_000,
        micro_batches=batches,
        head_scale=HEAD_SCALE,
        timeout_s=60,
    )
    if out["optimizer_steps"] != 1:  # counted in the learner's process: a reason to fail only
        fail(
            _("train_step_accumulated over {k} micro-batches: optimizer.step() calls", k=k),
            1,
            out["optimizer_steps"],
            hint=_("step once after all k backward passes"),
        )
    if out["forwards"] != k:
        fail(_("{call} calls", call="model(x)"), k, out["forwards"], hint=_("one forward per micro-batch"))
    model = follow_up_model(seed % 10_000, HEAD_SCALE)
    ref = loop.reference_step(model, (torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])))
    reported = out["out"]["grad_norm"] if type(out["out"]) is dict else None
    if type(reported) not in (int, float) or abs(reported - ref.norm) > 1e-4 * ref.norm + 1e-6:
        fail(
            _(
                "train_step_accumulated(...)['grad_norm'] over {k} micro-batches of "
                "{micro}: the pre-clip norm of the full-batch gradient",
                k=k,
                micro=micro,
            ),
            ref.norm,
            reported,
            hint=_("divide each micro-batch loss by k before backward()"),
        )
    loss = out["out"].get("loss") if type(out["out"]) is dict else None
    if type(loss) not in (int, float) or not abs(loss - ref.loss) <= 1e-4:
        last = loss is not None and type(loss) in (int, float) and _is_last_times_k(loss, batches, seed, k)
        fail(
            _(
                "train_step_accumulated(...)['loss'] over {k} micro-batches of {micro}: the full batch's mean loss",
                k=k,
                micro=micro,
            ),
            _("{loss:.5f} (the course's loop's loss on the full batch, computed here)", loss=ref.loss),
            loss,
            hint=_(
                "the mean of the k micro-batch losses (each before its division by k): "
                "the last micro-batch's loss times k is one micro-batch's loss, not the "
                "batch's (nanoGPT#206) / 返回 k 个微批次损失的平均值（除以 k 之前的值），而不是最后一个微批次损失乘以 k"
            )
            if last
            else _(
                "the mean of the k micro-batch losses, each taken before its division by "
                "k / 返回 k 个微批次损失（除以 k 之前）的平均值"
            ),
        )
    what = _("gradient at the step, {k} micro-batches of {micro} (the weights' move under SGD(lr=1))", k=k, micro=micro)
    got = loop.returned_weights(model, {"params": out["params"]}, what) - ref.before
    expect_close(
        got,
        -ref.grad,
        _("{what}, against the course's loop's step on the full batch", what=what),
        atol=1e-5,
        rtol=1e-4,
        hint=_("divide each micro-batch loss by k; backward() accumulates; step once"),
    )


def _is_last_times_k(loss: float, batches, seed: int, k: int) -> bool:
    """Whether ``loss`` is the last micro-batch's loss times k (nanoGPT#206), computed here."""
    import torch.nn.functional as F

    x, y = batches[-1]
    with torch.no_grad():
        logits = follow_up_model(seed % 10_000, HEAD_SCALE)(x)
    last = float(F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), y.reshape(-1)))
    return abs(loss - k * last) <= 1e-4 * k


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support import schedule_mistakes  # noqa: E402
from grader.checks.support.mistakes import mistake  # noqa: E402,F401 - the naming test finds declaring checks by it

schedule_mistakes.declare(__name__, "learning_rates")
