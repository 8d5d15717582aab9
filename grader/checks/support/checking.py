"""Small helpers every hidden check uses: validate what came back, say expected vs got.

A failed key point raises :class:`KeyPointFailure` (an AssertionError) that carries
``expected`` and ``got`` separately, so the terminal report can show both and the classroom
feedback can leave the expected value out.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from typing import Any

import numpy as np

from grader.i18n import _
from grader.isolation.learner import LearnerRaised


class KeyPointFailure(AssertionError):
    """``example``: the input that failed, as the check words it (without the expected value). When
    given, the report shows it instead of hypothesis's drawn arguments, which may be a fixed
    case's bystanders or carry the expected answer (a strategy that draws it with the input)."""

    def __init__(self, what: str, expected: Any = None, got: Any = None, hint: str = "", example: str | None = None):
        self.what, self.expected, self.got, self.hint, self.example = what, expected, got, hint, example
        lines = [what]
        if expected is not None:
            lines.append(f"expected: {_short(expected)}")
        if got is not None:
            lines.append(f"got:      {_short(got)}")
        if hint:
            lines.append(f"hint:     {hint}")
        super().__init__("\n".join(lines))


def _short(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + " ..."


def fail(what: str, expected: Any = None, got: Any = None, hint: str = "", example: str | None = None) -> None:
    raise KeyPointFailure(what, expected, got, hint, example)


def blame(learner, call: dict | None) -> None:
    """Point the report's failing input (the learner's last call) at ``call``: a key point that asks
    several cases before it fails must show a case that failed, not the last one it asked."""
    if call is not None and hasattr(learner, "last_call"):
        learner.last_call = call


def expect_equal(got: Any, expected: Any, what: str, hint: str = "", example: str | None = None) -> None:
    if got != expected or type(got) is not type(expected) and not _both_numbers(got, expected):
        fail(what, expected, got, hint, example)


def _both_numbers(a: Any, b: Any) -> bool:
    return all(type(x) in (int, float) for x in (a, b))


def as_shape(value: Any, what: str) -> tuple[int, ...]:
    """Validate a shape: a tuple (or list) of non-negative plain ints; returns a tuple."""
    if type(value) not in (tuple, list) or not all(type(d) is int and d >= 0 for d in value):
        fail(_("{what} must be a tuple of non-negative ints", what=what), "tuple[int, ...]", value)
    return tuple(value)


def as_number(value: Any, what: str) -> float:
    """Validate a finite real number (int, float or a NumPy scalar that came back)."""
    if isinstance(value, np.generic) and np.issubdtype(value.dtype, np.number):
        value = value.item()
    if type(value) not in (int, float) or isinstance(value, bool):
        fail(_("{what} must be a number", what=what), _("int or float"), f"{type(value).__name__}: {_short(value)}")
    if not math.isfinite(value):
        fail(_("{what} must be finite", what=what), _("a finite number"), value)
    return float(value)


def as_int(value: Any, what: str) -> int:
    if isinstance(value, np.integer):
        value = int(value)
    if type(value) is not int:
        fail(_("{what} must be an int", what=what), "int", f"{type(value).__name__}: {_short(value)}")
    return value


def as_str(value: Any, what: str) -> str:
    if type(value) is not str:
        fail(_("{what} must be a string", what=what), "str", f"{type(value).__name__}: {_short(value)}")
    return value


def as_tensor(value: Any, what: str, shape: tuple[int, ...] | None = None, dtype=None, hint: str = ""):
    """Validate a returned array/tensor: type, shape, dtype, finiteness; returns a torch tensor."""
    import torch

    if isinstance(value, np.ndarray):
        value = torch.from_numpy(value)
    if not isinstance(value, torch.Tensor):
        fail(_("{what} must be a tensor", what=what), "torch.Tensor", type(value).__name__, hint)
    if shape is not None and tuple(value.shape) != tuple(shape):
        fail(_("{what} has the wrong shape", what=what), tuple(shape), tuple(value.shape), hint)
    if dtype is not None and value.dtype != dtype:
        fail(_("{what} has the wrong dtype", what=what), dtype, value.dtype, hint)
    if value.is_floating_point() and not torch.isfinite(value).all():
        bad = int((~torch.isfinite(value)).sum())
        fail(
            _("{what} contains {bad} NaN/inf values", what=what, bad=bad),
            _("finite values"),
            _("{bad} non-finite of {numel}", bad=bad, numel=value.numel()),
            hint,
        )
    return value


def expect_close(got, expected, what: str, *, atol: float, rtol: float = 0.0, hint: str = "") -> None:
    """Element-wise |got - expected| <= atol + rtol*|expected| for tensors of equal shape."""
    import torch

    got = as_tensor(got, what, shape=tuple(expected.shape), dtype=expected.dtype, hint=hint)
    err = (got - expected).abs()
    bound = atol + rtol * expected.abs()
    if not bool((err <= bound).all()):
        worst = float((err - bound).max() + bound.flatten()[torch.argmax((err - bound).flatten())])
        allowed = f"{atol:g}" + (f" + {rtol:g}*|ref|" if rtol else "")  # apart: pybabel skips f-strings in _()
        fail(
            _("{what} differs from the reference", what=what),
            _("max abs error <= {bound}", bound=allowed),
            _("max abs error {worst:.3g}", worst=worst),
            hint,
        )


@contextmanager
def expect_raises(type_name: str, what: str):
    """The learner's call inside must raise ``type_name`` (by name: exceptions cross as data)."""
    try:
        yield
    except LearnerRaised as exc:
        if exc.type_name != type_name:
            fail(what, _("{type} raised", type=type_name), f"{exc.type_name}: {exc.raw_message}")
        return
    fail(what, _("{type} raised", type=type_name), _("returned normally"))


CHILD_CPU_S = 0.05  # CPU time of waited-for children a measured call may cost (none is started)


def expect_own_process(watch: dict, what: str) -> None:
    """A call whose memory is measured in the learner's process (A1, C7's streaming) must do its
    work there: ``watch`` from ``Learner.watched`` names the other processes seen during it."""
    if watch["pids"] or watch["children_cpu_s"] > CHILD_CPU_S:
        fail(
            _("{what} must do its work in your own process: the peak memory measured is that process's", what=what),
            _("no other process (child, or one of your session)"),
            _(
                "{pids} other process(es) seen (peak resident {value:.1f} MB), "
                "{children_cpu_s:.2f} s of child-process CPU time",
                pids=len(watch["pids"]),
                value=watch["peak_hwm"] / 2**20,
                children_cpu_s=watch["children_cpu_s"],
            ),
            hint=_("stream in the function itself; a child interpreter's memory is not yours to hide"),
        )
