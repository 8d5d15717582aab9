"""What a learner would type: a right answer, a wrong one, a unit slip, for any answer type and
right value (the quiz tests answer through these, in process and through a pseudo-terminal)."""

from __future__ import annotations

from grader.quiz import units
from grader.quiz.answers import (
    LETTERS,
    BroadcastShape,
    Choice,
    Command,
    Einsum,
    MultiSelect,
    Number,
    Ordering,
    Shape,
    YesNo,
)


def _letter(answer: Choice, key: str) -> str:
    return next(LETTERS[i] for i, o in enumerate(answer.options) if o.key == key)


def right(answer, truth) -> str:
    if isinstance(answer, Number):
        u = answer.u
        if answer.dim == "count" and u.factor != 1.0:
            u = units.COUNT
        text = units.show(float(truth), u, sig=7)
        return text
    if isinstance(answer, YesNo):
        return "y" if truth else "n"
    if isinstance(answer, Ordering):
        order = Ordering._orders(truth)[0]
        return " ".join(_letter(answer, k) for k in order)
    if isinstance(answer, MultiSelect):
        return " ".join(_letter(answer, k) for k in sorted(truth, key=lambda k: _letter(answer, k)))
    if isinstance(answer, Choice):  # a truth of several keys: the course states each one
        return _letter(answer, truth[0] if isinstance(truth, (tuple, list)) else truth)
    if isinstance(answer, BroadcastShape) and truth is None:
        return "error"
    if isinstance(answer, Shape):
        return str(tuple(truth))
    if isinstance(answer, (Einsum, Command)):
        return truth
    raise TypeError(type(answer))


def wrong(answer, truth) -> str:
    if isinstance(answer, Number):
        t = float(truth)
        value = (
            (t / 3 if t > 0.15 else t + 0.4)
            if answer.dim == "fraction" and answer.u.symbol != "%"
            else t * 3 + (7 if t == 0 else 0)
        )
        return units.show(value, answer.u if answer.dim != "count" else units.COUNT, sig=7)
    if isinstance(answer, YesNo):
        return "n" if truth else "y"
    if isinstance(answer, Ordering):
        order = Ordering._orders(truth)
        letters = [_letter(answer, k) for k in order[0]]
        for perm in (letters[::-1], letters[1:] + letters[:1]):
            if tuple(answer.options[LETTERS.index(c)].key for c in perm) not in order:
                return " ".join(perm)
    if isinstance(answer, MultiSelect):
        keys = [o.key for o in answer.options]
        other = [k for k in keys if k not in set(truth)]
        return _letter(answer, other[0]) if other else _letter(answer, keys[0])
    if isinstance(answer, Choice):
        right = truth if isinstance(truth, (tuple, list)) else (truth,)
        return next(_letter(answer, o.key) for o in answer.options if o.key not in right)
    if isinstance(answer, BroadcastShape) and truth is None:
        return "(1, 2)"
    if isinstance(answer, Shape):
        return str(tuple(truth) + (1,))
    if isinstance(answer, Einsum):
        return "ij,jk->ik"
    if isinstance(answer, Command):
        return "python " + answer.script
    raise TypeError(type(answer))


def slip(answer, truth) -> str | None:
    """The right number with a unit slip the validation must name (None: no slip for this answer)."""
    if not isinstance(answer, Number) or answer.tol.low is not None:
        return None
    v = float(truth)
    if answer.dim == "bytes" and answer.u.power and (answer.tol.rel or 0) < 0.07:
        u = answer.u
        other = units.unit(u.symbol[0] + "iB") if u.family == "si" else units.unit(u.symbol.replace("i", ""))
        return f"{units.fmt_number(v / u.factor, 6)} {other.symbol}"  # the number as if in the other family
    if answer.dim == "bytes":
        return f"{units.fmt_number(v, 6)} bits"
    if answer.dim == "time":
        return f"{units.fmt_number(v * 1e3, 6)} s"  # the number of ms, typed as seconds
    return None
