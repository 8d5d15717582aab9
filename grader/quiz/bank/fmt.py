"""Numbers as the question text shows them (premises, never answers)."""

from __future__ import annotations

from grader.quiz import course_text
from grader.quiz.units import fmt_number


def g(x: float, sig: int = 3) -> str:
    """3 significant digits, no trailing zeros: 16.7, 0.67, 128.5 -> '128' ... use sig=4 for that."""
    return f"{float(f'{x:.{sig}g}'):g}"


def gb(nbytes: float, sig: int = 3) -> str:
    return f"{g(nbytes / 1e9, sig)} GB"


def gib(nbytes: float, sig: int = 3) -> str:
    return f"{g(nbytes / 2**30, sig)} GiB"


def mb(nbytes: float, sig: int = 3) -> str:
    return f"{g(nbytes / 1e6, sig)} MB"


def millions(n: float) -> str:
    return f"{n / 1e6:.2f}M"


def ctx(tokens: int) -> str:
    """4096 -> '4K', 6144 -> '6K', 5000 -> '5000'."""
    return f"{tokens // 1024}K" if tokens % 1024 == 0 else str(tokens)


def num(x: float) -> str:
    return fmt_number(x)


def mr(part: int, index: int) -> str:
    """A must-remember line of part ``part`` (§二), verbatim."""
    return course_text.MUST_REMEMBER[part][index]


