"""The twenty-line training loop's ground truth and how its four additions are read from a
learner's loop (P2, C5: the same contract, ``lr_at`` / ``configure_optimizer`` / ``train_step``,
on the same model, ``grader/given/char_model.py``; part 3).

Ground truth is computed in the check process, which the learner's code never touched, from the
same model (same seed), the same batches and the same single-threaded kernels, so the learner's
right answer matches to rounding: the loss of the initial model with
``F.cross_entropy(logits.float(), ignore_index=-100)`` under ``torch.autocast(bf16)`` or in fp32,
the gradient before and after ``clip_grad_norm_``, and the learning rate a real AdamW runs with
under torch's own warmup and cosine schedulers.

The learner's loop runs in its process through ``grader/drivers/p2_training_loop.py``, which can
hand ``train_step`` the check's optimizer, SGD(lr=1) with a constant schedule: the weights then
move by exactly minus the gradient at ``optimizer.step()``. So autocast shows in the loss and in
the update's direction (bf16 matmuls change the gradient by ~1%), clipping in the update's norm.
The schedule runs with the learner's AdamW; the driver restarts each step from the initial weights
with an empty optimizer state, so every step is an AdamW first step, linear in its learning rate,
and the weights' move says the lr of that step. What the driver counts in the learner's process
(``optimizer.step()`` calls per ``train_step``) can only make a key point fail.

The ``expect_*`` functions are the key points on the four additions; P2's and C5's checks draw
their own inputs and call them (``expect_schedule_drawn`` draws the rest from the check's ``data``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import torch
import torch.nn.functional as F
from hypothesis import strategies as st
from torch.optim import lr_scheduler

from grader.checks.support.checking import as_number, as_tensor, fail
from grader.drivers.p2_training_loop import SMALL
from grader.given.char_model import build_model, encode, get_batch, make_corpus
from grader.i18n import _

V = 128  # the character model's vocabulary
IGNORE_INDEX = torch.nn.CrossEntropyLoss().ignore_index  # -100: the labels the loss skips
SHORT = {"max_lr": 3e-3, "min_lr": 3e-4, "warmup_steps": 2, "total_steps": 6, "weight_decay": 0.1}
SCHEDULE_KEYS = ("max_lr", "min_lr", "warmup_steps", "total_steps")


# ---------------------------------------------------------------- inputs
def batches(data_seed: int, n: int, B: int, T: int, mask_rate: float = 0.0) -> list:
    """``n`` batches ``(x, y)`` of the course's corpus; ``mask_rate`` of the labels set to -100
    (at least one target left per batch)."""
    data = encode(make_corpus(20_000, seed=data_seed))
    g = torch.Generator().manual_seed(data_seed)
    out = []
    for _batch in range(n):
        x, y = get_batch(data, B, T, g)
        if mask_rate:
            y = y.clone()
            y[torch.rand(y.shape, generator=g) < mask_rate] = IGNORE_INDEX
            y[0, -1] = int(x[0, -1])
        out.append((x, y))
    return out


# ---------------------------------------------------------------- reference computations
def reference_ce(logits: torch.Tensor, y: torch.Tensor) -> float:
    return float(F.cross_entropy(logits.float().reshape(-1, V), y.reshape(-1), ignore_index=IGNORE_INDEX))


def flat(tensors) -> torch.Tensor:
    return torch.cat([t.detach().float().reshape(-1) for t in tensors])


def rel(got: torch.Tensor, want: torch.Tensor) -> float:
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
    """forward (under autocast when asked), fp32 masked cross-entropy, backward, clip: part 3's
    step up to optimizer.step(); the clipped gradient stays in ``model``'s .grad."""
    x, y = batch
    with torch.autocast("cpu", dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    loss = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=IGNORE_INDEX)
    loss.backward()
    params = list(model.parameters())
    raw = flat(p.grad for p in params)
    norm = float(torch.nn.utils.clip_grad_norm_(params, 1.0))
    return Step(loss.item(), norm, flat(params), raw, flat(p.grad for p in params))


@lru_cache(maxsize=256)
def _applied_lrs(max_lr: float, min_lr: float, warmup_steps: int, total_steps: int, n_steps: int) -> tuple:
    """The lr of each of ``n_steps`` optimizer steps of a real AdamW driven by torch's schedulers:
    LinearLR from max_lr/warmup_steps up to max_lr over the warmup steps, CosineAnnealingLR down to
    min_lr at total_steps, then min_lr (ConstantLR), chained by SequentialLR."""
    param = torch.zeros(1, requires_grad=True)  # no .grad: optimizer.step() leaves it alone
    optimizer = torch.optim.AdamW([param], lr=max_lr)
    phases, milestones = [], []
    if warmup_steps:
        phases.append(
            lr_scheduler.LinearLR(
                optimizer, start_factor=1 / warmup_steps, end_factor=1.0, total_iters=warmup_steps - 1
            )
        )
        milestones.append(warmup_steps)
    phases.append(lr_scheduler.CosineAnnealingLR(optimizer, T_max=total_steps - warmup_steps, eta_min=min_lr))
    milestones.append(total_steps)
    phases.append(lr_scheduler.ConstantLR(optimizer, factor=min_lr / max_lr, total_iters=n_steps + 1))
    scheduler = lr_scheduler.SequentialLR(optimizer, phases, milestones)
    lrs = []
    for _step in range(n_steps):
        lrs.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return tuple(lrs)


def scheduled_lr(step: int, *, max_lr: float, min_lr: float, warmup_steps: int, total_steps: int) -> float:
    """The learning rate AdamW runs optimizer step ``step`` (0-based) with under torch's warmup +
    cosine schedulers (see ``_applied_lrs``)."""
    horizon = max(step, total_steps + 10) + 1  # one run per schedule covers the steps a check asks
    return _applied_lrs(max_lr, min_lr, warmup_steps, total_steps, horizon)[step]


def adamw_unit_move(seed: int, batch, amp_dtype=None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(initial weights w, u, u_raw): AdamW's first step from the initial SMALL model on ``batch``
    moves the weights by -lr * u, u = weight_decay * w + g / (|g| + eps) (m_hat = g and v_hat = g^2
    whatever the betas), g the clipped gradient (u_raw: g unclipped; a loop without clipping moves
    by -lr * u_raw, which differs from u through eps): a step's move gives its learning rate.
    (The closed form agrees with torch.optim.AdamW to rounding, and spares this process its ~1 s
    first step.)"""
    step = reference_step(build_model(seed, SMALL), batch, amp_dtype)
    decay = SHORT["weight_decay"] * step.before
    return step.before, decay + step.grad / (step.grad.abs() + 1e-8), decay + step.raw / (step.raw.abs() + 1e-8)


# ---------------------------------------------------------------- the learner's loop
def drive(
    learner,
    *,
    seed,
    batches,
    amp_dtype=None,
    config=SHORT,
    optimizer="learner",
    reset=False,
    small=False,
    return_params=False,
) -> dict:
    """Runs the learner's train_step once per batch in its process (grader/drivers/p2_training_loop.py)."""
    out = learner.drive(
        "grader.drivers.p2_training_loop:run_steps",
        seed=seed,
        config=dict(config),
        batches=batches,
        amp_dtype=amp_dtype,
        optimizer=optimizer,
        reset=reset,
        small=small,
        return_params=return_params,
        timeout_s=60,
    )
    if "error" in out:
        fail(
            _("configure_optimizer / train_step return values"),
            _("(optimizer, scheduler) and a dict"),
            out["error"],
            _("see the stub's docstrings"),
        )
    if len(out["steps"]) != len(batches):
        fail(_("train_step calls"), len(batches), len(out["steps"]))
    for i, rec in enumerate(out["steps"]):  # counted in the learner's process: a reason to fail only
        if rec["optimizer_steps"] != 1:
            fail(
                _("train_step call {i}: optimizer.step() calls", i=i),
                1,
                rec["optimizer_steps"],
                _("one train_step = one optimizer.step()"),
            )
    return out


def returned_loss(step: dict, what: str) -> float:
    return as_number(step["loss"], f"{what}: train_step(...)['loss']")


def returned_weights(model, rec: dict, what: str, dtype=torch.float32) -> torch.Tensor:
    """The weights the learner's process returned after a step, flat, validated against ``model``'s
    names and shapes (and parameter dtype: fp32 unless said otherwise)."""
    got = rec.get("params")
    names = [name for name, _ in model.named_parameters()]
    if not isinstance(got, dict) or list(got) != names:
        fail(
            _("{what}: the model's parameters", what=what),
            _("{names} named parameters of grader.given.char_model's GPT", names=len(names)),
            f"{type(got).__name__} {list(got)[:5] if isinstance(got, dict) else ''}",
        )
    dtypes = sorted({str(getattr(v, "dtype", type(v).__name__)).removeprefix("torch.") for v in got.values()})
    if dtypes != [str(dtype).removeprefix("torch.")]:
        fail(
            _("{what}: parameter dtypes after the step", what=what),
            [str(dtype).removeprefix("torch.")],
            dtypes,
            _(
                "autocast leaves parameters (master weights) in fp32; do not "
                ".to(bfloat16) the model (part 4: bf16 has 7 mantissa bits, 1 + 1e-5 == "
                "1)"
            ),
        )
    return flat(
        as_tensor(got[name], f"{what}: parameter {name}", shape=tuple(p.shape), dtype=dtype)
        for name, p in model.named_parameters()
    )


# ---------------------------------------------------------------- the four additions
def expect_autocast(learner, seed: int, data_seed: int) -> None:
    """Addition 1: the forward runs under autocast(bf16) when amp_dtype says so: the loss and the
    direction of the step are those of the bf16 forward, not of fp32."""
    batch = batches(data_seed, 1, 2, 16)[0]
    out = drive(learner, seed=seed, batches=[batch], amp_dtype=torch.bfloat16, optimizer="unit_sgd", return_params=True)
    model = build_model(seed)
    amp, fp32 = reference_step(model, batch, torch.bfloat16), reference_step(build_model(seed), batch)
    unit_amp, unit_fp32 = amp.grad / amp.grad.norm(), fp32.grad / fp32.grad.norm()
    apart = rel(unit_fp32, unit_amp)
    if apart < 1e-3:
        raise AssertionError(_("check error: bf16 and fp32 gradients only {apart:.1e} apart", apart=apart))
    what = f"train_step(..., amp_dtype=torch.bfloat16), model seed {seed}, batch 2 x 16"
    hint = _(
        "run the forward under torch.autocast(device_type=x.device.type, "
        "dtype=amp_dtype): matmuls then run in bf16 (part 3, must-remember: "
        "autocast)"
    )
    rec = out["steps"][0]
    move = returned_weights(model, rec, what) - amp.before  # SGD(lr=1): minus the gradient at step()
    got = returned_loss(rec, what)
    if not math.isclose(got, amp.loss, rel_tol=0, abs_tol=1e-5):
        fail(
            _("{what}: loss", what=what),
            _(
                "{loss:.6f} (the same forward under autocast(bf16), computed here; fp32 gives {loss2:.6f})",
                loss=amp.loss,
                loss2=fp32.loss,
            ),
            _("{loss:.6f} (the fp32 loss)", loss=got)
            if math.isclose(got, fp32.loss, rel_tol=0, abs_tol=1e-6)
            else f"{got:.6f}",
            hint,
        )
    if not move.norm() > 0:
        fail(_("{what}: parameters updated", what=what), _("the step changes the weights"), _("no parameter changed"))
    err = rel(move / move.norm(), -unit_amp)
    if err > 1e-4:
        fail(
            _(
                "{what}: direction of the step (the gradient at optimizer.step(), read "
                "from the weights after a step of SGD(lr=1))",
                what=what,
            ),
            _(
                "the gradient of the autocast(bf16) forward (relative error <= 1e-4; the "
                "fp32 gradient is {apart:.1e} away)",
                apart=apart,
            ),
            _(
                "relative error {err:.1e} (vs the fp32 gradient: {rel:.1e})",
                err=err,
                rel=rel(move / move.norm(), -unit_fp32),
            ),
            hint,
        )


def expect_float_logits_ignore_index(learner, seed: int, data_seed: int) -> None:
    """Addition 2: the loss is the fp32 cross-entropy of the autocast logits, averaged over the
    labels that are not -100."""
    masked = batches(data_seed, 3, 2, 16, mask_rate=0.5)
    out = drive(learner, seed=seed, batches=masked, amp_dtype=torch.bfloat16, optimizer="unit_sgd", reset=True)
    model = build_model(seed)
    for i, (rec, (x, y)) in enumerate(zip(out["steps"], masked, strict=True)):
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(x)
        expected = reference_ce(logits, y)
        n_ignored = int((y == IGNORE_INDEX).sum())
        what = _(
            "mixed-precision step {i}: the loss with {n_ignored} of {numel} targets ignored",
            i=i,
            n_ignored=n_ignored,
            numel=y.numel(),
        )
        got = returned_loss(rec, what)
        if not math.isclose(got, expected, rel_tol=0, abs_tol=1e-5):
            with torch.no_grad():
                fp32 = math.isclose(got, reference_ce(model(x), y), rel_tol=0, abs_tol=1e-6)
            fail(
                what,
                _(
                    "{expected:.6f}: the cross-entropy of the initial model's autocast(bf16) "
                    "logits, taken in fp32 over the labelled positions (model seed {seed}, "
                    "computed here)",
                    expected=expected,
                    seed=seed,
                ),
                _("{loss:.6f} (the same loss of an fp32 forward)", loss=got) if fp32 else f"{got:.6f}",
                _("run the forward under autocast when amp_dtype is given (see amp_step)")
                if fp32
                else _(
                    "cast the logits to fp32 (.float()) before cross_entropy: a bf16 softmax "
                    "keeps ~3 digits; and average over the labelled positions only (part 3, "
                    "must-remember)"
                ),
            )


def expect_clipped(learner, seed: int, data_seed: int) -> None:
    """Addition 3: optimizer.step() sees this step's gradient clipped to norm 1.0, and train_step
    reports the norm before clipping; on BOTH branches of train_step (fp32 and amp_dtype=bf16: a
    GradScaler-style clip of scaled gradients, or a clip only on one branch, shows on the other)."""
    for amp_dtype, (B, T) in ((None, (4, 32)), (torch.bfloat16, (2, 16))):  # bf16 autocast is slow on CPU
        _expect_clipped_step(learner, seed, data_seed, amp_dtype, B, T)


def _expect_clipped_step(learner, seed, data_seed, amp_dtype, B, T) -> None:
    ((x, y),) = batches(data_seed, 1, B, T)
    y = torch.full_like(y, int(y[0, 0]))  # one target everywhere: a large first gradient
    model = build_model(seed)
    ref = reference_step(model, (x, y), amp_dtype)
    assert ref.norm > 1.5, _("check error: crafted batch gives grad norm {norm}", norm=ref.norm)
    out = drive(learner, seed=seed, batches=[(x, y)], optimizer="unit_sgd", return_params=True, amp_dtype=amp_dtype)
    rec = out["steps"][0]
    path = "fp32" if amp_dtype is None else "amp_dtype=bfloat16"
    what = _("{path}: total gradient norm when optimizer.step() runs (raw norm {norm:.3f})", path=path, norm=ref.norm)
    move = returned_weights(model, rec, what) - ref.before  # SGD(lr=1): minus the gradient at step()
    if not math.isclose(float(move.norm()), 1.0, rel_tol=1e-3):
        fail(
            _("{what}, read from the weights after a step of SGD(lr=1)", what=what),
            _("1.0 (clipped to max_norm=1.0)"),
            f"{float(move.norm()):.4f}",
            _(
                "call torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0) after "
                "backward() and before optimizer.step(), on the true gradients (bf16 "
                "needs no GradScaler; with one, unscale_ before clipping) (part 3, "
                "must-remember)"
            ),
        )
    err = rel(move, -ref.grad)
    if err > 1e-4:
        fail(
            _("{path}: the gradient at optimizer.step() (read from the weights after a step of SGD(lr=1))", path=path),
            _("the clipped gradient of this batch's loss, computed here (relative error <= 1e-4)"),
            _("relative error {err:.1e}", err=err),
            _(
                "clip the gradient of THIS step's loss: forward, loss, backward(), "
                "clip_grad_norm_, optimizer.step() (part 3)"
            ),
        )
    reported = as_number(rec["grad_norm"], f"{path}: train_step(...)['grad_norm']")
    if not math.isclose(reported, ref.norm, rel_tol=1e-3):
        fail(
            f"{path}: train_step(...)['grad_norm']",
            _("{norm:.4f} (the norm before clipping)", norm=ref.norm),
            f"{reported:.4f}",
            _("report what clip_grad_norm_ returns: the total norm before clipping"),
        )


def expect_schedule(learner, sched: dict, steps) -> None:
    """Addition 4, the formula: lr_at(step, **sched) equals the lr torch's schedulers give AdamW."""
    for step in steps:
        what = f"lr_at({step}, {', '.join(f'{k}={v}' for k, v in sched.items())})"
        got = as_number(learner.lr_at(step, **sched), what)
        expected = scheduled_lr(step, **sched)
        if not math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-12):
            fail(
                what,
                expected,
                got,
                _(
                    "linear warmup max_lr*(step+1)/warmup_steps, then cosine from max_lr to "
                    "min_lr over [warmup_steps, total_steps], min_lr after (part 3: warmup "
                    "50 steps to 3e-4, cosine to 3e-5)"
                ),
            )


def schedule_steps(sched: dict, drawn: int) -> list[int]:
    """The steps where a schedule is easiest to get wrong (both ends of the warmup and of the
    cosine, after it), and one drawn step."""
    return sorted(
        {
            0,
            sched["warmup_steps"] - 1,
            sched["warmup_steps"],
            sched["total_steps"] - 1,
            sched["total_steps"],
            sched["total_steps"] + 5,
            drawn,
        }
        - {-1}
    )


def expect_schedule_drawn(learner, sched: dict, data) -> None:
    """Addition 4 as P2 and C5 check it: the formula at the hard steps and one drawn from ``data``
    (Hypothesis's ``st.data()``), then, on half of the draws with a warmup, the loop on a drawn
    branch of train_step."""
    drawn_step = data.draw(st.integers(0, sched["total_steps"] + 10))
    expect_schedule(learner, sched, schedule_steps(sched, drawn_step))
    if data.draw(st.booleans(), label="also in a real loop") or sched["warmup_steps"] == 0:
        return
    expect_loop_follows_schedule(
        learner, amp_dtype=data.draw(st.sampled_from([None, torch.bfloat16]), label="amp_dtype")
    )


def expect_loop_follows_schedule(learner, seed: int = 1, amp_dtype=None) -> None:
    """Addition 4, in the loop: the learner's configure_optimizer + train_step with SHORT's
    schedule (on the branch ``amp_dtype`` says), each step from the same initial weights with a
    fresh AdamW state: the move of step k must be -lr_k * u, lr_k the lr AdamW runs step k with
    under torch's schedulers. The schedule is what is judged: a move that fits lr_k with the
    unclipped gradient is accepted too (clipping is the clip key point's business, and is not
    blamed on the scheduler)."""
    batch = batches(7, 1, 2, 8)[0]
    n = SHORT["total_steps"] + 1
    out = drive(
        learner, seed=seed, batches=[batch] * n, reset=True, small=True, return_params=True, amp_dtype=amp_dtype
    )
    model = build_model(seed, SMALL)
    before, u, u_raw = adamw_unit_move(seed, batch, amp_dtype)
    sched = {key: SHORT[key] for key in SCHEDULE_KEYS}
    for k, rec in enumerate(out["steps"]):
        expected = scheduled_lr(k, **sched)
        what = _(
            "learning rate of optimizer.step() in train_step call {k} ({sched}{value})",
            k=k,
            sched=sched,
            value=", amp_dtype=bfloat16" if amp_dtype is not None else "",
        )
        move = returned_weights(model, rec, what) - before
        if min(rel(move, -expected * u), rel(move, -expected * u_raw)) > 1e-3:
            seen = float(-(move @ u) / (u @ u))
            hint = _(
                "configure_optimizer's scheduler must follow lr_at, and train_step must "
                "call scheduler.step() after optimizer.step(): the first step uses "
                "lr_at(0); the optimizer is AdamW(lr=max_lr, betas=(0.9, 0.95), "
                "weight_decay={weight_decay}) (part 3)",
                weight_decay=SHORT["weight_decay"],
            )
            if seen and abs(seen - expected) <= 0.01 * expected:
                hint = _(
                    "the learning rate is right, but the step's direction is not AdamW's "
                    "first step on this batch's gradient: check the optimizer (AdamW, "
                    "betas=(0.9, 0.95), weight_decay) and that the step uses this batch's "
                    "gradient"
                )
            fail(
                what,
                expected,
                _("{seen:.6g} (read from how far AdamW moved the weights)", seen=seen)
                if seen
                else _("the step did not move the weights"),
                hint,
            )


# ---------------------------------------------------------------- zero_grad (P2's grads_after_step, C5's step_gradient)
def expect_own_gradients(learner, seed: int, data_seed: int) -> None:
    """Each step uses its own gradient: several steps on BOTH branches of train_step (fp32, then
    amp_dtype=bf16) without the driver clearing .grad in between, so a zero_grad missing on one
    branch shows on that branch's second step (facebookresearch/nwm#16); every returned loss and
    grad_norm of every step against that step's reference; .grad cleared after the step."""
    for amp_dtype, n in ((None, 3), (torch.bfloat16, 2)):  # both branches, several steps each
        _expect_own_gradients_on(learner, seed, data_seed, amp_dtype, n)


def _expect_own_gradients_on(learner, seed, data_seed, amp_dtype, n):
    drawn = batches(data_seed, n, 2, 16)
    out = drive(learner, seed=seed, batches=drawn, optimizer="unit_sgd", return_params=True, amp_dtype=amp_dtype)
    model = build_model(seed)
    before = flat(model.parameters())
    path = "fp32" if amp_dtype is None else "amp_dtype=bfloat16"
    kept = None  # the gradient of step i-1 (minus its move): what a missing zero_grad adds to step i
    moves, names = [], [name for name, _ in model.named_parameters()]
    for i, (rec, batch) in enumerate(zip(out["steps"], drawn, strict=True)):
        # the gradient at the weights this step started from (the learner's after step i-1: any
        # clipping or none, only the direction of the move is compared)
        torch.nn.utils.vector_to_parameters(before, model.parameters())
        model.zero_grad(set_to_none=True)
        ref = reference_step(model, batch, amp_dtype)
        what = _(
            "{path}, train_step call {i} with SGD(lr=1): the direction of the "
            "weights' move (minus the gradient at optimizer.step())",
            path=path,
            i=i,
        )
        after = returned_weights(model, rec, what)
        move = after - before
        err = rel(move / move.norm(), -ref.raw / ref.raw.norm()) if move.norm() > 0 else 1.0
        if err > 1e-4:
            if not move.norm() > 0:
                got, hint = (
                    _("no parameter moved: the step found no gradient"),
                    (
                        _(
                            "zero_grad belongs after optimizer.step() (or before backward), never "
                            "between backward() and step(): the step then sees no gradient (part 3, "
                            "§Autograd)"
                        )
                    ),
                )
            else:
                got, hint = f"relative error {err:.1e}", _("forward, loss, backward(), clip, step(), zero_grad()")
                if kept is not None and rel(move / move.norm(), -(kept + ref.raw) / (kept + ref.raw).norm()) < 1e-3:
                    got, hint = (
                        _("the previous step's gradient added to this one's"),
                        _(
                            "backward() accumulates into .grad: every step must clear the gradients, "
                            "optimizer.zero_grad(set_to_none=True) after the step, on every path of "
                            "train_step (fp32 and autocast) (part 3, must-remember)"
                        ),
                    )
            fail(what, _("this step's gradient, computed here (relative error <= 1e-4)"), got, hint)
        # every value train_step returns, on every call (not only the first)
        loss = returned_loss(rec, f"{path}, train_step call {i}")
        if not math.isclose(loss, ref.loss, rel_tol=0, abs_tol=1e-4):
            fail(
                _("{path}, train_step call {i}: the returned loss", path=path, i=i),
                _("{loss:.5f} (this step's loss, before its update, computed here)", loss=ref.loss),
                f"{loss:.5f}",
                _(
                    "return loss.item() of THIS step (not a running mean, not the previous "
                    "step's, not recomputed after optimizer.step())"
                ),
            )
        norm = as_number(rec["grad_norm"], _("{path}, train_step call {i}: ['grad_norm']", path=path, i=i))
        if not math.isclose(norm, ref.norm, rel_tol=1e-3):
            fail(
                _("{path}, train_step call {i}: the returned grad_norm", path=path, i=i),
                _("{norm:.4f} (this step's total norm before clipping)", norm=ref.norm),
                f"{norm:.4f}",
                _("report what clip_grad_norm_ returns on this step"),
            )
        moves.append(move)
        kept, before = -move, after
    # The stub's contract (issue 23): after train_step, every .grad is None (cleared at the end of the step, the
    # course's order) or holds exactly the gradient this step applied (cleared at the start of the next one,
    # the tutorial order); a tensor of zeros, or any other gradient, is neither. Seen in the learner's
    # process: a reason to fail only.
    for i, (rec, move) in enumerate(zip(out["steps"], moves, strict=True)):
        if not rec["grads_held_after"]:
            continue
        what = _("{path}, train_step call {i}: .grad of every parameter after train_step returns", path=path, i=i)
        grads = rec.get("grads")
        held = None
        if rec["grads_held_after"] == out["n_params"] and isinstance(grads, dict) and list(grads) == names:
            held = flat(
                as_tensor(grads[name], _("{what}: .grad of {name}", what=what, name=name), shape=tuple(p.shape))
                for name, p in model.named_parameters()
            )
        if held is None or not held.norm() > 0 or rel(held, -move) > 1e-3:
            counts = _(
                "{grads_held_after} of {n_params} hold a tensor ({grads_nonzero_after} of them non-zero)",
                grads_held_after=rec["grads_held_after"],
                n_params=out["n_params"],
                grads_nonzero_after=rec["grads_nonzero_after"],
            )
            fail(
                what,
                _("None for every parameter, or exactly the gradient this step applied"),
                counts
                if held is None or not held.norm() > 0
                else _("{counts}, not this step's gradient", counts=counts),
                _(
                    "zero_grad(set_to_none=True) after the step (or before the next "
                    "backward) frees the gradients; set_to_none=False leaves tensors of "
                    "zeros, a memory write per step; backward() accumulates, so every step "
                    "must clear them (part 3, must-remember)"
                ),
            )
