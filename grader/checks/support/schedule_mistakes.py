"""The learning-rate schedule's named mistakes (issue 29), one place for every check that asks for
``lr_at(step, *, max_lr, min_lr, warmup_steps, total_steps)`` (P2, C5): the truth is the lr
torch's own schedulers give AdamW (``truth.training_loop.scheduled_lr``)."""

from __future__ import annotations

import dataclasses
import math

from grader.checks.support import mistakes
from grader.checks.support.mistakes import mistake
from grader.checks.truth.training_loop import scheduled_lr

# short (cheap to run torch's schedulers on), warmup > 1, min_lr > 0: every slip below differs here
_SCHED = {"max_lr": 1e-3, "min_lr": 1e-4, "warmup_steps": 4, "total_steps": 12}


def _cosine(step, max_lr, min_lr, warmup_steps, total_steps):
    return min_lr + 0.5 * (max_lr - min_lr) * (
        1 + math.cos(math.pi * (step - warmup_steps) / (total_steps - warmup_steps))
    )


# (slip, the steps it is about, probe step, zh, en): slip(step, **schedule) is what the answer gives
_SLIPS = [
    (
        lambda s, max_lr, warmup_steps, **_: max_lr * s / warmup_steps,
        "warmup",
        2,
        "warmup 差了一步（从 0 开始）：第 step 步（从 0 数）的学习率是 max_lr × (step + 1) / warmup_steps",
        "shifts the warmup by one step (it starts at 0): step s (0-based) runs max_lr x (s + 1) / warmup_steps",
    ),
    (
        lambda s, max_lr, **_: max_lr,
        "warmup",
        1,
        "没有 warmup：前 warmup_steps 步学习率要从小线性升到 max_lr",
        "has no warmup: the first warmup_steps steps rise linearly to max_lr",
    ),
    (
        lambda s, max_lr, **_: max_lr,
        "cosine",
        8,
        "warmup 之后学习率一直是 max_lr：要按余弦从 max_lr 降到 min_lr",
        "keeps max_lr after the warmup: the cosine takes it down from max_lr to min_lr",
    ),
    (
        lambda s, min_lr, **k: _cosine(s, min_lr=0.0, **k),
        "cosine",
        8,
        "余弦降到了 0：它降到的是 min_lr",
        "decays the cosine to 0: it goes down to min_lr",
    ),
    (
        lambda s, **k: _cosine(s, **k),
        "after",
        15,
        "过了 total_steps 余弦还在继续：之后学习率停在 min_lr",
        "keeps the cosine going after total_steps: after it the lr stays at min_lr",
    ),
]


def _region(step, warmup_steps, total_steps) -> str:
    return "warmup" if step < warmup_steps else "cosine" if step < total_steps else "after"


def declare(where: str, key_point: str) -> None:
    """``where``: the declaring check module (``__name__``)."""
    first = len(mistakes.DECLARED)
    for slip, region, probe_step, zh, en in _SLIPS:

        @mistake(key_point, function="lr_at", probe=((probe_step,), dict(_SCHED)), zh=zh, en=en)
        def _holds(got, step, _slip=slip, _region_=region, **sched):
            if set(sched) != set(_SCHED) or _region(step, sched["warmup_steps"], sched["total_steps"]) != _region_:
                return False
            if _region_ != "warmup" and (sched["total_steps"] - sched["warmup_steps"] < 2 or sched["min_lr"] <= 0):
                return False  # a degenerate cosine (one step, or down to 0), where several slips coincide
            bad = _slip(step, **sched)  # relative: learning rates are small numbers
            return (
                isinstance(got, (int, float))
                and math.isclose(got, bad, rel_tol=1e-6)
                and not math.isclose(bad, scheduled_lr(step, **sched), rel_tol=1e-6)
            )

    mistakes.DECLARED[first:] = [dataclasses.replace(m, where=where) for m in mistakes.DECLARED[first:]]
