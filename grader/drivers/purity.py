"""Purity driver: calls one of the learner's functions in the learner's process (an argument
sent across processes is a copy, so a change made to it there is invisible to the check) and
reports whether the call changed its arguments, returned one of them (or a dict or list inside
one) instead of a new object, and, separately, whether the new result reuses (shares) a list or
dict of an argument. A check asks only what its stub asks: "a new dict, the argument unmodified"
is ``returns_an_argument`` and ``changed_args``; reusing an unchanged list is ``shares_with_argument``,
which no such stub forbids.
"""

from __future__ import annotations

import copy


def _same(a, b) -> bool:
    try:
        import torch

        if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
            return isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and torch.equal(a, b)
    except ImportError:  # pragma: no cover - torch is always there in the grader
        pass
    return a == b


def _objects(x) -> list:
    out = [x]
    if isinstance(x, dict):
        for v in x.values():
            out += _objects(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            out += _objects(v)
    return out


def call_and_compare(learner_module, fn_name: str, args: list, kwargs: dict | None = None) -> dict:
    before = copy.deepcopy(args)
    result = getattr(learner_module, fn_name)(*args, **(kwargs or {}))
    shared = {id(o) for a in args for o in _objects(a) if isinstance(o, (dict, list))}
    return {
        "result": result,
        "changed_args": [i for i, (a, b) in enumerate(zip(args, before, strict=True)) if not _same(a, b)],
        "returns_an_argument": id(result) in shared,
        "shares_with_argument": any(id(o) in shared for o in _objects(result) if isinstance(o, (dict, list))),
    }
