"""P2 — the twenty-line training loop on the course's character Transformer (840,448 parameters).

Ground truth is computed in this process, which the learner's code never touched, from the same
model (grader/given/char_model.py, same seed), the same batches and the same single-threaded kernels
(so the learner's right answer matches to rounding): the loss of the initial model with
F.cross_entropy(logits.float(), ignore_index=-100) under torch.autocast(bf16) or in fp32, the
gradient before and after clipping, the schedule's closed form, and the validation perplexity of
the learner's trained weights on freshly generated text the learner never trained on.

Each key point passes only on values the learner's code produced, compared with that ground
truth: train_step's returned loss and grad_norm, and the weights after the step. For the weights
to say what the loop did, the driver (grader/drivers/p2_training_loop.py) can hand train_step the
check's optimizer, SGD(lr=1) with a constant schedule: the weights then move by exactly minus the
gradient at optimizer.step(). So autocast shows in the loss and in the update's direction (bf16
matmuls change the gradient by ~1%), clipping in the update's norm, zero_grad in the second
step's update (a missing one adds the first gradient; one between backward and step leaves the
weights where they were). The schedule runs with the learner's AdamW; the driver restarts each
step from the initial weights with an empty optimizer state, so every step is an AdamW first
step, linear in its learning rate, and the weights' move says the lr of that step. What the
driver counts in the learner's process (optimizer.step() calls per train_step, .grad fields left
after it: set_to_none=True vs False changes no number) can only make a key point fail.

Short runs on small crafted batches keep every key point but ppl_falls under a few seconds;
bf16 autocast runs are tiny (B=2, T=16: autocast on CPU is ~30x slower, part 3).

The contract's paths, and the key point that exercises each (issue 17: a path no check runs with
the bug in it lets the bug through):
- amp_dtype None and torch.bfloat16 are two branches of train_step: zero_grad_set_to_none and
  clips_grad_norm run BOTH, several steps without reset (a bf16 branch that forgets zero_grad
  shows only on its second step, facebookresearch/nwm#16; a GradScaler clip before unscale_ only
  under bf16, milesial/Pytorch-UNet#468); the schedule's loop runs on a drawn branch;
  float_logits_ignore_index and uses_autocast run bf16, first_loss_ln_v fp32.
- every returned value on every call: loss and grad_norm of each step of zero_grad_set_to_none
  are compared with the step's reference (a running mean, or the norm after clipping, is right
  on step 0 only); the parameters' dtype after each step (fp32).
- repeated calls: 2-3 steps in zero_grad_set_to_none, 3 in float_logits_ignore_index, 7 in the
  schedule's loop; lr_at on the warmup boundary, the last step and past total_steps.
- labels -100: float_logits_ignore_index (half masked; mean over the labelled positions only).
- tolerances: losses 1e-4/1e-5 absolute, grad_norm 1e-3 relative, directions 1e-4 relative, lr 1e-6 relative.

ppl_falls: 80 steps, batch 8 x 64 characters, AdamW max_lr 3e-3, 10 warmup steps, cosine to
3e-4, fp32. Measured here for the reference: validation PPL 8.7-9.5 over four seeds (from 128 at
step 0; 12.8 after 30 steps; 9.4-10.6 after 60), 8-11 s single-threaded on a loaded 2-core box;
the threshold is 12 (the course: 9.6 after one CPU minute).
"""

import math
from typing import NamedTuple

import torch

torch.set_num_threads(1)  # this check process: oversubscribed threads are ~10x slower on a shared box
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks.support import strategies
from grader.given.char_model import build_model, encode, evaluate_loss, get_batch, make_corpus
from grader.checks.support.checking import as_number, as_tensor, fail
from grader.drivers.p2_training_loop import SMALL

V = 128
LN_V = math.log(V)
P3_LNV = "part 3, must-remember: the first-step loss should be ln V (ln 128 = 4.85)"

PPL_THRESHOLD = 12.0
TRAIN = {"steps": 80, "batch_size": 8, "seq_len": 64, "max_lr": 3e-3, "min_lr": 3e-4,
         "warmup_steps": 10, "weight_decay": 0.1, "corpus_chars": 200_000, "amp_dtype": None}
SHORT = {"max_lr": 3e-3, "min_lr": 3e-4, "warmup_steps": 2, "total_steps": 6, "weight_decay": 0.1}


def lr_reference(step, *, max_lr, min_lr, warmup_steps, total_steps):
    """The schedule of the stub's docstring: linear warmup to max_lr, cosine down to min_lr."""
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= total_steps:
        return min_lr
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * progress))


def _batches(data_seed: int, n: int, B: int, T: int, mask_rate: float = 0.0):
    data = encode(make_corpus(20_000, seed=data_seed))
    g = torch.Generator().manual_seed(data_seed)
    out = []
    for _ in range(n):
        x, y = get_batch(data, B, T, g)
        if mask_rate:
            y = y.clone()
            y[torch.rand(y.shape, generator=g) < mask_rate] = -100
            y[0, -1] = int(x[0, -1])  # at least one target per batch
        out.append((x, y))
    return out


def _drive(learner, *, seed, batches, amp_dtype=None, config=SHORT, optimizer="learner", reset=False,
           small=False, return_params=False):
    out = learner.drive("grader.drivers.p2_training_loop:run_steps", seed=seed, config=dict(config),
                        batches=batches, amp_dtype=amp_dtype, optimizer=optimizer, reset=reset, small=small,
                        return_params=return_params, timeout_s=60)
    if "error" in out:
        fail("configure_optimizer / train_step return values", "(optimizer, scheduler) and a dict",
             out["error"], "see the stub's docstrings")
    if len(out["steps"]) != len(batches):
        fail("train_step calls", len(batches), len(out["steps"]))
    for i, rec in enumerate(out["steps"]):  # counted in the learner's process: a reason to fail only
        if rec["optimizer_steps"] != 1:
            fail(f"train_step call {i}: optimizer.step() calls", 1, rec["optimizer_steps"],
                 "one train_step = one optimizer.step()")
    return out


def _loss_of(step: dict, what: str) -> float:
    return as_number(step["loss"], f"{what}: train_step(...)['loss']")


def _reference_ce(logits: torch.Tensor, y: torch.Tensor) -> float:
    return float(F.cross_entropy(logits.float().reshape(-1, V), y.reshape(-1), ignore_index=-100))


def _flat(tensors) -> torch.Tensor:
    return torch.cat([t.detach().float().reshape(-1) for t in tensors])


def _rel(got: torch.Tensor, want: torch.Tensor) -> float:
    """|got - want| / |want| (inf when that is not a finite number, so that it never passes)."""
    err = float((got - want).norm() / want.norm())
    return err if math.isfinite(err) else math.inf


class Step(NamedTuple):
    loss: float  # F.cross_entropy(logits.float(), ignore_index=-100)
    norm: float  # total gradient norm before clipping
    before: torch.Tensor  # the weights before the step, flat
    raw: torch.Tensor  # the gradient, flat
    grad: torch.Tensor  # the gradient after clip_grad_norm_(1.0), flat


def reference_step(model, batch, amp_dtype=None) -> Step:
    """forward (under autocast when asked), fp32 masked cross-entropy, backward, clip: the
    reference train_step up to optimizer.step(); the clipped gradient stays in ``model``'s .grad."""
    x, y = batch
    with torch.autocast("cpu", dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    loss = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=-100)
    loss.backward()
    params = list(model.parameters())
    raw = _flat(p.grad for p in params)
    norm = float(torch.nn.utils.clip_grad_norm_(params, 1.0))
    return Step(loss.item(), norm, _flat(params), raw, _flat(p.grad for p in params))


def returned_weights(model, rec: dict, what: str, dtype=torch.float32) -> torch.Tensor:
    """The weights the learner's process returned after a step, flat, validated against ``model``'s
    names and shapes (and parameter dtype: fp32 unless said otherwise)."""
    got = rec.get("params")
    names = [name for name, _ in model.named_parameters()]
    if not isinstance(got, dict) or list(got) != names:
        fail(f"{what}: the model's parameters", f"{len(names)} named parameters of grader.given.char_model's GPT",
             f"{type(got).__name__} {list(got)[:5] if isinstance(got, dict) else ''}")
    dtypes = sorted({str(getattr(v, "dtype", type(v).__name__)).removeprefix("torch.") for v in got.values()})
    if dtypes != [str(dtype).removeprefix("torch.")]:
        fail(f"{what}: parameter dtypes after the step", [str(dtype).removeprefix("torch.")], dtypes,
             "autocast leaves parameters (master weights) in fp32; do not .to(bfloat16) the model "
             "(part 4: bf16 has 7 mantissa bits, 1 + 1e-5 == 1)")
    return _flat(as_tensor(got[name], f"{what}: parameter {name}", shape=tuple(p.shape), dtype=dtype)
                 for name, p in model.named_parameters())


# ---------------------------------------------------------------- first loss
@settings(max_examples=3)
@given(strategies.p2_runs)
def test_first_loss_ln_v(learner, run):
    seed, data_seed = run
    batches = _batches(data_seed, 1, 4, 32)
    out = _drive(learner, seed=seed, batches=batches)
    x, y = batches[0]
    with torch.no_grad():
        expected = _reference_ce(build_model(seed)(x), y)
    what = f"first train_step loss (fp32, model seed {seed}, batch 4 x 32)"
    got = _loss_of(out["steps"][0], what)
    if abs(expected - LN_V) > 0.3:  # a property of the shipped model's init, not of the learner
        raise AssertionError(f"check error: initial loss {expected:.3f} is not near ln 128")
    if not math.isclose(got, expected, rel_tol=0, abs_tol=1e-4):
        fail(what, f"{expected:.5f} (mean cross-entropy of the initial model; ln 128 = {LN_V:.3f})",
             f"{got:.5f}",
             "return loss.item() of THIS step's loss, before the update: the mean over non-ignored "
             "tokens (" + P3_LNV + ")")


# ---------------------------------------------------------------- perplexity
@settings(max_examples=1)
@given(strategies.p2_runs)
def test_ppl_falls(learner, figure, run):
    seed, data_seed = run
    config = dict(TRAIN, seed=seed % 10_000, data_seed=data_seed % 10_000)
    out = learner.drive("grader.drivers.p2_training_loop:run_train", config=config, timeout_s=150)
    if "error" in out:
        fail("train(config) return value", "(model, losses)", out["error"])
    losses = out["losses"]
    if len(losses) != config["steps"]:
        fail("train(config): number of losses", config["steps"], len(losses), "one loss per step")
    figure(kind="line", title="P2 training loss", x_label="step", y_label="loss (nats)",
           series={"yours": [[i, v] for i, v in enumerate(losses)], "ln 128": [[0, LN_V], [len(losses) - 1, LN_V]]})
    if abs(losses[0] - LN_V) > 0.3:
        fail("train(config): the first loss", f"~ ln 128 = {LN_V:.2f}", round(losses[0], 3), P3_LNV)
    model = build_model(0)
    try:
        model.load_state_dict(out["state_dict"])
    except (RuntimeError, KeyError) as exc:
        fail("train(config): the returned model", "the GPT of grader.given.char_model", str(exc)[:200])
    val = encode(make_corpus(16_384 + 1, seed=10_000 + config["data_seed"] + 1))  # text it never saw
    ppl = math.exp(evaluate_loss(model, val, block_size=128))
    if not ppl < PPL_THRESHOLD:
        fail(f"validation perplexity after {config['steps']} steps (batch {config['batch_size']} x "
             f"{config['seq_len']}, max_lr {config['max_lr']})", f"< {PPL_THRESHOLD} (the reference reaches ~9.6)",
             f"{ppl:.2f} (training loss went {losses[0]:.2f} -> {losses[-1]:.2f})",
             "part 3: PPL 128 -> 9.6 in one CPU minute; a loop that does not learn usually loses "
             "its gradients (zero_grad between backward and step) or never steps the optimizer")


# ---------------------------------------------------------------- schedule
@settings(max_examples=30)
@given(strategies.lr_schedules(), st.data())
def test_schedule_values(learner, sched, data):
    steps = sorted({0, sched["warmup_steps"] - 1, sched["warmup_steps"], sched["total_steps"] - 1,
                    sched["total_steps"], sched["total_steps"] + 5,
                    data.draw(st.integers(0, sched["total_steps"] + 10))} - {-1})
    for step in steps:
        what = f"lr_at({step}, {', '.join(f'{k}={v}' for k, v in sched.items())})"
        got = as_number(learner.lr_at(step, **sched), what)
        expected = lr_reference(step, **sched)
        if not math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-12):
            fail(what, expected, got,
                 "linear warmup max_lr*(step+1)/warmup_steps, then cosine from max_lr to min_lr over "
                 "[warmup_steps, total_steps], min_lr after (part 3: warmup 50 steps to 3e-4, cosine to 3e-5)")
    if data.draw(st.booleans(), label="also in a real loop") or sched["warmup_steps"] == 0:
        return
    loop_lrs_follow_schedule(learner, amp_dtype=data.draw(st.sampled_from([None, torch.bfloat16]), label="amp_dtype"))


def _adamw_unit_move(seed: int, batch, amp_dtype=None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(initial weights w, u, u_raw): AdamW's first step from the initial SMALL model on ``batch``
    moves the weights by -lr * u, u = weight_decay * w + g / (|g| + eps) (m_hat = g and v_hat = g^2
    whatever the betas), g the clipped gradient (u_raw: g unclipped; a loop without clipping moves
    by -lr * u_raw, which differs from u through eps): a step's move gives its learning rate.
    (The closed form agrees with torch.optim.AdamW to rounding, and spares this process its ~1 s
    first step.)"""
    step = reference_step(build_model(seed, SMALL), batch, amp_dtype)
    decay = SHORT["weight_decay"] * step.before
    return step.before, decay + step.grad / (step.grad.abs() + 1e-8), decay + step.raw / (step.raw.abs() + 1e-8)


def loop_lrs_follow_schedule(learner, seed=1, amp_dtype=None):
    """The learner's configure_optimizer + train_step, SHORT's schedule, each step from the same
    initial weights with a fresh AdamW state: the move of step k must be -lr_at(k) * u. The
    schedule is what is judged here: a move that fits lr_at(k) with the unclipped gradient is
    accepted too (clipping is clips_grad_norm's business, and must not be blamed on the scheduler)."""
    batch = _batches(7, 1, 2, 8)[0]
    n = SHORT["total_steps"] + 1
    out = _drive(learner, seed=seed, batches=[batch] * n, reset=True, small=True, return_params=True,
                 amp_dtype=amp_dtype)
    model = build_model(seed, SMALL)
    before, u, u_raw = _adamw_unit_move(seed, batch, amp_dtype)
    sched = {key: SHORT[key] for key in ("max_lr", "min_lr", "warmup_steps", "total_steps")}
    for k, rec in enumerate(out["steps"]):
        expected = lr_reference(k, **sched)
        what = (f"learning rate of optimizer.step() in train_step call {k} ({sched}"
                f"{', amp_dtype=bfloat16' if amp_dtype is not None else ''})")
        move = returned_weights(model, rec, what) - before
        if min(_rel(move, -expected * u), _rel(move, -expected * u_raw)) > 1e-3:
            seen = float(-(move @ u) / (u @ u))
            hint = ("configure_optimizer's scheduler must follow lr_at, and train_step must call "
                    "scheduler.step() after optimizer.step(): the first step uses lr_at(0); the optimizer is "
                    f"AdamW(lr=max_lr, betas=(0.9, 0.95), weight_decay={SHORT['weight_decay']}) (part 3)")
            if seen and abs(seen - expected) <= 0.01 * expected:
                hint = ("the learning rate is right, but the step's direction is not AdamW's first step on this "
                        "batch's gradient: check the optimizer (AdamW, betas=(0.9, 0.95), weight_decay) and "
                        "that the step uses this batch's gradient")
            fail(what, expected, f"{seen:.6g} (read from how far AdamW moved the weights)" if seen else
                 "the step did not move the weights", hint)


# ---------------------------------------------------------------- autocast
@settings(max_examples=2)
@given(strategies.p2_runs)
def test_uses_autocast(learner, run):
    seed, data_seed = run
    batch = _batches(data_seed, 1, 2, 16)[0]
    out = _drive(learner, seed=seed, batches=[batch], amp_dtype=torch.bfloat16, optimizer="unit_sgd",
                 return_params=True)
    model = build_model(seed)
    amp, fp32 = reference_step(model, batch, torch.bfloat16), reference_step(build_model(seed), batch)
    unit_amp, unit_fp32 = amp.grad / amp.grad.norm(), fp32.grad / fp32.grad.norm()
    apart = _rel(unit_fp32, unit_amp)
    if apart < 1e-3:
        raise AssertionError(f"check error: bf16 and fp32 gradients only {apart:.1e} apart")
    what = f"train_step(..., amp_dtype=torch.bfloat16), model seed {seed}, batch 2 x 16"
    hint = ("run the forward under torch.autocast(device_type=x.device.type, dtype=amp_dtype): "
            "matmuls then run in bf16 (part 3, must-remember: autocast)")
    rec = out["steps"][0]
    move = returned_weights(model, rec, what) - amp.before  # SGD(lr=1): minus the gradient at step()
    got = _loss_of(rec, what)
    if not math.isclose(got, amp.loss, rel_tol=0, abs_tol=1e-5):
        fail(f"{what}: loss", f"{amp.loss:.6f} (the same forward under autocast(bf16), computed here; "
             f"fp32 gives {fp32.loss:.6f})", f"{got:.6f}" + (" (the fp32 loss)" if
             math.isclose(got, fp32.loss, rel_tol=0, abs_tol=1e-6) else ""), hint)
    if not move.norm() > 0:
        fail(f"{what}: parameters updated", "the step changes the weights", "no parameter changed")
    err = _rel(move / move.norm(), -unit_amp)
    if err > 1e-4:
        fail(f"{what}: direction of the step (the gradient at optimizer.step(), read from the weights "
             "after a step of SGD(lr=1))", f"the gradient of the autocast(bf16) forward (relative error "
             f"<= 1e-4; the fp32 gradient is {apart:.1e} away)",
             f"relative error {err:.1e} (vs the fp32 gradient: {_rel(move / move.norm(), -unit_fp32):.1e})", hint)


# ---------------------------------------------------------------- .float() + ignore_index
@settings(max_examples=2)
@given(strategies.p2_runs)
def test_float_logits_ignore_index(learner, run):
    seed, data_seed = run
    batches = _batches(data_seed, 3, 2, 16, mask_rate=0.5)
    out = _drive(learner, seed=seed, batches=batches, amp_dtype=torch.bfloat16, optimizer="unit_sgd", reset=True)
    model = build_model(seed)
    for i, (rec, (x, y)) in enumerate(zip(out["steps"], batches)):
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(x)
        expected = _reference_ce(logits, y)
        n_ignored = int((y == -100).sum())
        what = f"bf16 autocast step {i}: loss with {n_ignored} of {y.numel()} labels = -100"
        got = _loss_of(rec, what)
        if not math.isclose(got, expected, rel_tol=0, abs_tol=1e-5):
            with torch.no_grad():
                fp32 = math.isclose(got, _reference_ce(model(x), y), rel_tol=0, abs_tol=1e-6)
            fail(what, f"{expected:.6f} = F.cross_entropy(logits.float(), labels, ignore_index=-100) "
                       f"of the initial model's autocast(bf16) logits (model seed {seed}, computed here)",
                 f"{got:.6f}" + (" (the same loss of an fp32 forward)" if fp32 else ""),
                 "run the forward under autocast when amp_dtype is given (see uses_autocast)" if fp32 else
                 "cast the logits to fp32 (.float()) before cross_entropy: a bf16 softmax keeps ~3 "
                 "digits; and average over the labels that are not -100 only (part 3, must-remember)")


# ---------------------------------------------------------------- clipping
@settings(max_examples=2)
@given(strategies.p2_runs)
def test_clips_grad_norm(learner, run):
    seed, data_seed = run
    for amp_dtype, (B, T) in ((None, (4, 32)), (torch.bfloat16, (2, 16))):  # both branches of train_step
        _expect_clipped_step(learner, seed, data_seed, amp_dtype, B, T)


def _expect_clipped_step(learner, seed, data_seed, amp_dtype, B, T):
    (x, y), = _batches(data_seed, 1, B, T)
    y = torch.full_like(y, int(y[0, 0]))  # one target everywhere: a large first gradient
    model = build_model(seed)
    ref = reference_step(model, (x, y), amp_dtype)
    assert ref.norm > 1.5, f"check error: crafted batch gives grad norm {ref.norm}"
    out = _drive(learner, seed=seed, batches=[(x, y)], optimizer="unit_sgd", return_params=True, amp_dtype=amp_dtype)
    rec = out["steps"][0]
    path = "fp32" if amp_dtype is None else "amp_dtype=bfloat16"
    what = f"{path}: total gradient norm when optimizer.step() runs (raw norm {ref.norm:.3f})"
    move = returned_weights(model, rec, what) - ref.before  # SGD(lr=1): minus the gradient at step()
    if not math.isclose(float(move.norm()), 1.0, rel_tol=1e-3):
        fail(what + ", read from the weights after a step of SGD(lr=1)", "1.0 (clipped to max_norm=1.0)",
             f"{float(move.norm()):.4g}", "call torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0) after "
             "backward() and before optimizer.step(), on the true gradients (bf16 needs no GradScaler; with "
             "one, unscale_ before clipping) (part 3, must-remember)")
    err = _rel(move, -ref.grad)
    if err > 1e-4:
        fail(f"{path}: the gradient at optimizer.step() (read from the weights after a step of SGD(lr=1))",
             "the clipped gradient of this batch's loss, computed here (relative error <= 1e-4)",
             f"relative error {err:.1e}", "clip the gradient of THIS step's loss: forward, loss, backward(), "
             "clip_grad_norm_, optimizer.step() (part 3)")
    reported = as_number(rec["grad_norm"], f"{path}: train_step(...)['grad_norm']")
    if not math.isclose(reported, ref.norm, rel_tol=1e-3):
        fail(f"{path}: train_step(...)['grad_norm']", f"{ref.norm:.4f} (the norm before clipping)", f"{reported:.4f}",
             "report what clip_grad_norm_ returns: the total norm before clipping")


# ---------------------------------------------------------------- zero_grad
@settings(max_examples=2)
@given(strategies.p2_runs)
def test_zero_grad_set_to_none(learner, run):
    seed, data_seed = run
    for amp_dtype, n in ((None, 3), (torch.bfloat16, 2)):  # both branches, several steps each
        _expect_own_gradients(learner, seed, data_seed, amp_dtype, n)


def _expect_own_gradients(learner, seed, data_seed, amp_dtype, n):
    batches = _batches(data_seed, n, 2, 16)
    out = _drive(learner, seed=seed, batches=batches, optimizer="unit_sgd", return_params=True, amp_dtype=amp_dtype)
    model = build_model(seed)
    before = _flat(model.parameters())
    path = "fp32" if amp_dtype is None else "amp_dtype=bfloat16"
    kept = None  # the gradient of step i-1 (minus its move): what a missing zero_grad adds to step i
    for i, (rec, batch) in enumerate(zip(out["steps"], batches)):
        # the gradient at the weights this step started from (the learner's after step i-1: any
        # clipping or none, only the direction of the move is compared)
        torch.nn.utils.vector_to_parameters(before, model.parameters())
        model.zero_grad(set_to_none=True)
        ref = reference_step(model, batch, amp_dtype)
        what = (f"{path}, train_step call {i} with SGD(lr=1): the direction of the weights' move (minus the "
                "gradient at optimizer.step())")
        after = returned_weights(model, rec, what)
        move = after - before
        err = _rel(move / move.norm(), -ref.raw / ref.raw.norm()) if move.norm() > 0 else 1.0
        if err > 1e-4:
            if not move.norm() > 0:
                got, hint = "no parameter moved: the step found no gradient", (
                    "zero_grad belongs after optimizer.step() (or before backward), never between "
                    "backward() and step(): the step then sees no gradient (part 3, §Autograd)")
            else:
                got, hint = f"relative error {err:.1e}", "forward, loss, backward(), clip, step(), zero_grad()"
                if kept is not None and _rel(move / move.norm(), -(kept + ref.raw) / (kept + ref.raw).norm()) < 1e-3:
                    got, hint = ("the previous step's gradient added to this one's", "backward() accumulates "
                                 "into .grad: every step must clear the gradients, optimizer.zero_grad("
                                 "set_to_none=True) after the step, on every path of train_step (fp32 and "
                                 "autocast) (part 3, must-remember)")
            fail(what, "this step's gradient, computed here (relative error <= 1e-4)", got, hint)
        # every value train_step returns, on every call (not only the first)
        loss = _loss_of(rec, f"{path}, train_step call {i}")
        if not math.isclose(loss, ref.loss, rel_tol=0, abs_tol=1e-4):
            fail(f"{path}, train_step call {i}: the returned loss", f"{ref.loss:.5f} (this step's loss, before "
                 "its update, computed here)", f"{loss:.5f}", "return loss.item() of THIS step (not a running "
                 "mean, not the previous step's, not recomputed after optimizer.step())")
        norm = as_number(rec["grad_norm"], f"{path}, train_step call {i}: ['grad_norm']")
        if not math.isclose(norm, ref.norm, rel_tol=1e-3):
            fail(f"{path}, train_step call {i}: the returned grad_norm", f"{ref.norm:.4f} (this step's total "
                 "norm before clipping)", f"{norm:.4f}", "report what clip_grad_norm_ returns on this step")
        kept, before = -move, after
    for i, rec in enumerate(out["steps"]):
        if rec["grads_held_after"]:  # seen in the learner's process: a reason to fail only
            fail(f"{path}, train_step call {i}: .grad of every parameter after train_step returns",
                 "None for all (optimizer.zero_grad(set_to_none=True) after the step)",
                 f"{rec['grads_held_after']} of {out['n_params']} still hold a tensor "
                 f"({rec['grads_nonzero_after']} of them non-zero)",
                 "zero_grad(set_to_none=True) frees the gradients and saves a memory write; backward() "
                 "accumulates, so every step must clear them (part 3, must-remember)")
