"""C5 — the four additions, each detected by measuring the learner's loop. The four key points
are P2's own measurements (grader/checks/test_p2_training_loop.py, its driver and ground truth:
dtypes of Linear outputs under autocast, the loss recomputed from the logits with .float() and
ignore_index=-100, the pre-/post-clip gradient norm at optimizer.step(), the schedule's closed form
and the lr at each step) run on this exercise's module. The follow-up compares the gradient at
the accumulated step with the clipped full-batch gradient of the same small char GPT computed
here (part 3; part 7 §五.C question 5)."""

import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from grader import strategies
from grader.char_model import build_model, encode, get_batch, make_corpus
from grader.checking import as_tensor, expect_close, fail
from grader.checks import test_p2_training_loop as p2
from grader.drivers.c5_four_additions import SMALL


@settings(max_examples=2)
@given(strategies.p2_runs)
def test_autocast(learner, run):
    p2.test_uses_autocast.hypothesis.inner_test(learner, run)


@settings(max_examples=2)
@given(strategies.p2_runs)
def test_float_ignore_index(learner, run):
    p2.test_float_logits_ignore_index.hypothesis.inner_test(learner, run)


@settings(max_examples=2)
@given(strategies.p2_runs)
def test_clip_grad_norm(learner, run):
    p2.test_clips_grad_norm.hypothesis.inner_test(learner, run)


@settings(max_examples=10)
@given(strategies.lr_schedules(), st.data())
def test_warmup_cosine(learner, sched, data):
    p2.test_schedule_values.hypothesis.inner_test(learner, sched, data)


@settings(max_examples=3)
@given(strategies.p2_runs, st.integers(2, 4), st.integers(1, 3))
def test_grad_accumulation(learner, run, k, micro):
    seed, data_seed = run
    data = encode(make_corpus(5_000, seed=data_seed % 10_000))
    g = torch.Generator().manual_seed(data_seed)
    batches = [get_batch(data, micro, SMALL.block_size, g) for _ in range(k)]
    out = learner.drive("grader.drivers.c5_four_additions:run_accumulated", seed=seed % 10_000, config=dict(p2.SHORT),
                        micro_batches=batches, timeout_s=60)
    if len(out["grads"]) != 1:
        fail(f"train_step_accumulated over {k} micro-batches: optimizer.step() calls", 1, len(out["grads"]),
             hint="step once after all k backward passes")
    if out["forwards"] != k:
        fail("model(x) calls", k, out["forwards"], hint="one forward per micro-batch")
    model = build_model(seed % 10_000, SMALL)
    x, y = torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])
    logits = model(x)
    F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100).backward()
    norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
    reported = out["out"]["grad_norm"] if type(out["out"]) is dict else None
    if type(reported) not in (int, float) or abs(reported - norm) > 1e-4 * norm + 1e-6:
        fail(f"train_step_accumulated(...)['grad_norm'] over {k} micro-batches of {micro}: the pre-clip norm of the "
             "full-batch gradient", norm, reported, hint="divide each micro-batch loss by k before backward()")
    want = torch.cat([p.grad.flatten() for p in model.parameters()])
    got = as_tensor(out["grads"][0], "the gradient at optimizer.step()", shape=tuple(want.shape))
    expect_close(got, want, f"gradient at the step, {k} micro-batches of {micro}, vs the clipped full-batch gradient",
                 atol=1e-5, rtol=1e-4, hint="divide each micro-batch loss by k; backward() accumulates; step once")
