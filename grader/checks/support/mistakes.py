"""Mistakes named by what an answer does, not by equality with a registered wrong answer.

A **property** is a small predicate over the call and the answer, declared beside the key point that
observes it (in the check file), with its sentence in Chinese and English::

    mistake("kv_bytes_on_drawn_configs", function="kv_cache_bytes", probe=((CFG, 7, 3, "bfloat16"), {}),
            zh="把 K 和 V 算成了一份", en="counts one of K and V, not both")(
        gives(lambda cfg, T, B, dt: truth(cfg, T, B, dt) / 2, truth))

``holds(got, *args, **kwargs)`` says whether the learner's answer ``got`` to ``function(*args,
**kwargs)`` does the mistake; an exception the learner raised comes as :class:`Raised`. After a key
point fails, :mod:`grader.engine.misconceptions` asks the properties of that key point about the
failing call; one that holds is confirmed on its ``probe``, a non-degenerate input chosen where the
known mistakes give different values (T > 1, heads != head_dim, a state larger than one GPU): the
learner's function is called once there and the property must hold again. A mistake is named only
when exactly one sentence survives: several mistakes that agree on both inputs are not told apart,
so none is named (a wrong name is worse than none).

:func:`gives` builds the common predicate: the answer equals what the mistake computes (from the
check's ground truth), and the mistake differs from the truth on this input. :func:`shows` says which
arguments, or keys of a dict argument, decide a key point: the failing-input block shows them first.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from grader import i18n
from grader.i18n import _


@dataclass(frozen=True)
class Raised:
    """What a call raised, by the exception's name (exceptions cross the sandbox as data)."""

    type_name: str


@dataclass(frozen=True)
class Mistake:
    key_points: tuple[str, ...]
    function: str
    zh: str
    en: str
    holds: Callable[..., bool]
    probe: tuple[tuple, dict] | None = None
    where: str = field(default="", compare=False)  # the declaring check module, for messages

    def sentence(self) -> str:
        return _("your result: {mistake}", mistake=i18n.either(en=self.en, zh=self.zh))


DECLARED: list[Mistake] = []
SHOWN_FIRST: dict[tuple[str, str], tuple[str, ...]] = {}  # (key point | "*", function) -> keys


def mistake(*key_points: str, function: str, zh: str, en: str, probe: tuple[tuple, dict] | None = None):
    """Declare a property of the key points ``key_points``; use as a decorator on its predicate."""
    if not key_points or not zh or not en:
        raise ValueError("a mistake needs its key points and its sentence in Chinese and English")

    def register(holds: Callable[..., bool]) -> Callable[..., bool]:
        DECLARED.append(Mistake(tuple(key_points), function, zh, en, holds, probe, getattr(holds, "__module__", "")))
        return holds

    return register


def shows(function: str, *keys: str, key_points: tuple[str, ...] = ("*",)) -> None:
    """The arguments or dict keys the check reads first in ``function``'s input (shown first)."""
    for kp in key_points:
        SHOWN_FIRST[(kp, function)] = tuple(keys)


def for_key_point(key_point: str, function: str | None = None) -> list[Mistake]:
    return [m for m in DECLARED if key_point in m.key_points and (function is None or m.function == function)]


def close(a: Any, b: Any, rel: float = 1e-6) -> bool:
    """Equal values, numbers within ``rel`` (relative): the same notion as the mutant replay's."""
    from grader.engine.misconceptions import distance

    if isinstance(a, Raised) or isinstance(b, Raised):
        return a == b
    return distance(a, b) <= rel


def gives(wrong: Callable[..., Any], truth: Callable[..., Any], rel: float = 1e-6) -> Callable[..., bool]:
    """The predicate "the answer is what ``wrong`` computes, and ``wrong`` is not right here"."""

    def holds(got, *args, **kwargs) -> bool:
        bad = wrong(*args, **kwargs)
        return close(got, bad, rel) and not close(bad, truth(*args, **kwargs), rel)

    holds.__module__ = getattr(wrong, "__module__", holds.__module__)
    return holds


def ratio(got: Any, want: Any, factor: float, rel: float = 1e-3) -> bool:
    """``got`` is ``want`` times ``factor`` (and ``factor`` is not 1): a unit or a factor slipped."""
    try:
        got, want = float(got), float(want)
    except (TypeError, ValueError):
        return False
    return want != 0 and abs(factor - 1) > rel and math.isfinite(got) and abs(got / want - factor) <= rel * abs(factor)
