"""After a failed key point: show the input that failed, and name the known mistake it matches.

Two things, both from the learner's last call of the failing key point (``Learner.last_call``: the
request and what came back; Hypothesis replays the failing example last, so it is a call on an
input that failed, not the shrunk example's drawn values, which may be an input the answer gets
right):

* **The failing input**, short (:func:`describe_call`): the function and its arguments, named as in
  the stub's signature; tensors as shape, dtype and a few values, long lists and strings cut,
  objects by name. It replaces Hypothesis's "Falsifying example" note.
* **The misconception** (:func:`name_misconception`): the same request is replayed against the
  registered wrong answers of the exercise (``solutions/mutants/<module>/*.py``) whose
  ``KILLED_BY`` names this key point, each in its own sandboxed learner process, and against the
  reference solution. When the learner's result equals a wrong answer's (much closer to it than
  that wrong answer is to the reference), the feedback names it in one line: the mutant's
  ``MISCONCEPTION`` (phrased "you ...") or else the first sentence of its docstring.

Cost: nothing unless a key point fails; then one process per candidate wrong answer, one at a
time, under a budget (:data:`BUDGET_S` per key point, :data:`TOTAL_BUDGET_S` per exercise; skipped when the failing call itself took
longer than :data:`SLOW_CALL_S`, e.g. a training run). ``grade_exercise(..., name_mistakes=False)``
(``--no-misconceptions``) turns the replay off: the project's harness grades hundreds of mutants.
"""

from __future__ import annotations

import ast
import math
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from grader.course.catalog import ROOT

BUDGET_S = 20.0  # replays per failed key point, all together
TOTAL_BUDGET_S = 60.0  # replays of one check process (one exercise), all key points together
_spent = [0.0]
SLOW_CALL_S = 4.0  # a failing call slower than this (training, profiling) is not replayed
MAX_CANDIDATES = 12
MUTANTS = ROOT / "solutions" / "mutants"


# ------------------------------------------------------------------ the failing input
def describe(value: Any, depth: int = 0) -> str:
    """A short, readable form of one argument or result."""
    if depth > 3:
        return "…"
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a dependency
        torch = None
    import numpy as np

    if torch is not None and isinstance(value, torch.Tensor):
        return _array_text(value.detach().cpu(), str(value.dtype).removeprefix("torch."), "tensor")
    if isinstance(value, np.ndarray):
        return _array_text(value, str(value.dtype), "array")
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (bool, int)) or value is None or value is Ellipsis:
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 80 else repr(value[:60]) + f"… ({len(value)} chars)"
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    if isinstance(value, slice):
        return f"{'' if value.start is None else value.start}:{'' if value.stop is None else value.stop}" + \
            ("" if value.step is None else f":{value.step}")
    if isinstance(value, dict):
        items = list(value.items())
        text = ", ".join(f"{k}: {describe(v, depth + 1)}" for k, v in items[:8])
        return "{" + text + (f", … ({len(items)} keys)" if len(items) > 8 else "") + "}"
    if isinstance(value, (list, tuple)):
        open_, close = ("(", ")") if isinstance(value, tuple) else ("[", "]")
        head = ", ".join(describe(v, depth + 1) for v in value[:6])
        if len(value) == 1 and isinstance(value, tuple):
            head += ","
        return open_ + head + (f", … ({len(value)} items)" if len(value) > 6 else "") + close
    name = getattr(value, "name_or_path", None) or getattr(getattr(value, "config", None), "_name_or_path", None)
    return f"<{type(value).__name__}{' ' + repr(name) if name else ''}>"


def _array_text(a, dtype: str, kind: str) -> str:
    shape = tuple(a.shape)
    flat = a.reshape(-1)
    n = int(flat.shape[0])
    if kind == "tensor" and dtype == "bfloat16":
        flat = flat.float()
    values = [v.item() if hasattr(v, "item") else v for v in flat[:4]]
    vals = ", ".join(f"{v:.4g}" if isinstance(v, float) else repr(v) for v in values)
    if n == 0:
        return f"{kind}{shape} {dtype} (empty)"
    if shape == ():
        return f"{kind}({vals}, {dtype})"
    return f"{kind}{shape} {dtype} [{vals}{', …' if n > 4 else ''}]"


@lru_cache(maxsize=64)
def _signature(module: str, function: str) -> tuple[str, ...]:
    """Parameter names of ``function`` in the stub ``exercises/<module>.py`` (the contract)."""
    try:
        tree = ast.parse((ROOT / "exercises" / f"{module}.py").read_text())
    except (OSError, SyntaxError):
        return ()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return tuple(a.arg for a in [*node.args.posonlyargs, *node.args.args])
    return ()


def describe_call(module: str, request: dict, limit: int = 700) -> str:
    args, kwargs = request.get("args", []), request.get("kwargs", {})
    if request.get("op") == "drive":
        name, names = request.get("driver", "").rpartition(":")[2], ()
        head = f"the grader's driver {name}(your module"
        parts = [describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kwargs.items()]
        text = head + "".join(", " + p for p in parts) + ")"
    else:
        name = request.get("name", "?")
        names = _signature(module, name)
        parts = [f"{names[i]}={describe(a)}" if i < len(names) else describe(a) for i, a in enumerate(args)]
        parts += [f"{k}={describe(v)}" for k, v in kwargs.items()]
        text = f"{name}({', '.join(parts)})"
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ------------------------------------------------------------------ the misconception
def _killed_by_and_line(path: Path) -> tuple[tuple[str, ...], str]:
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError):
        return (), ""
    killed, line = (), ""
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if node.targets[0].id == "KILLED_BY":
                killed = tuple(value)
            elif node.targets[0].id == "MISCONCEPTION":
                line = "your result is what you get if you " + str(value).rstrip(".")
    if not line:
        doc = " ".join((ast.get_docstring(tree) or "").split())
        first = doc.split(". ")[0].rstrip(".")
        if first:
            line = f"your result on this input is exactly what a known mistake gives: {first}"
    return killed, line


def candidates(module: str, key_point: str, exclude: Path | None = None) -> list[tuple[Path, str]]:
    """The registered wrong answers of ``module`` that this key point must catch, with their line."""
    out = []
    for path in sorted((MUTANTS / module).glob("*.py")):
        if path.name.startswith("_") or (exclude is not None and path.resolve() == exclude.resolve()):
            continue
        killed, line = _killed_by_and_line(path)
        if key_point in killed and line:
            out.append((path, line))
    return out


def distance(a: Any, b: Any) -> float:
    """0 for equal values; the largest relative difference of their numbers; inf if they differ
    in kind, shape, a string, or an exception."""
    import numpy as np

    try:
        import torch
    except ImportError:  # pragma: no cover
        torch = None
    if torch is not None and isinstance(a, torch.Tensor):
        a = a.detach().float().numpy() if a.dtype == torch.bfloat16 else a.detach().numpy()
    if torch is not None and isinstance(b, torch.Tensor):
        b = b.detach().float().numpy() if b.dtype == torch.bfloat16 else b.detach().numpy()
    if isinstance(a, np.generic):
        a = a.item()
    if isinstance(b, np.generic):
        b = b.item()
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.shape != b.shape:
            return math.inf
        if a.dtype.kind in "biu" and b.dtype.kind in "biu" or a.dtype.kind == "b":
            return 0.0 if np.array_equal(a, b) else math.inf
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        both_nan = np.isnan(a64) & np.isnan(b64)
        if (np.isnan(a64) ^ np.isnan(b64)).any():
            return math.inf
        diff = np.abs(a64 - b64) / (1.0 + np.abs(b64))
        diff[both_nan] = 0.0
        return float(diff.max()) if diff.size else 0.0
    if isinstance(a, bool) or isinstance(b, bool):
        return 0.0 if a == b and type(a) is type(b) else math.inf
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return 0.0 if math.isnan(a) and math.isnan(b) else math.inf
        if math.isinf(a) or math.isinf(b):
            return 0.0 if a == b else math.inf
        return abs(a - b) / (1.0 + abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return math.inf
        return max((distance(a[k], b[k]) for k in a), default=0.0)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return math.inf
        return max((distance(x, y) for x, y in zip(a, b)), default=0.0)
    try:
        return 0.0 if a == b else math.inf
    except Exception:  # noqa: BLE001 - values that cannot be compared are different
        return math.inf


def _outcome(call: dict) -> tuple[str, Any] | None:
    if "raised" in call:
        return ("raised", call["raised"])
    if "value" in call:
        return ("value", call["value"])
    return None


def _outcome_distance(a, b) -> float:
    if a[0] != b[0]:
        return math.inf
    return distance(a[1], b[1])


def _replay(path: Path, module: str, requests: list[dict], like) -> list[tuple[str, Any] | None]:
    """Run ``requests`` against the module at ``path`` in one fresh learner process like ``like``;
    the first one's outcome decides whether the others are run at all (None: no outcome)."""
    from grader.isolation.learner import Learner, LearnerError, LearnerRaised

    handle = Learner(module, path, call_timeout_s=min(like.call_timeout_s, 2 * SLOW_CALL_S),
                     import_timeout_s=like.import_timeout_s, memory_gib=like.memory_gib,
                     hidden=like.hidden, zygote=like.zygote,
                     inputs=getattr(getattr(like, "_sandbox", None), "inputs", None))  # the same generated files
    out: list[tuple[str, Any] | None] = []
    try:
        for request in requests:
            try:
                out.append(("value", handle._request(request, None, "replay")))
            except LearnerRaised as exc:
                out.append(("raised", exc.type_name))
            except LearnerError:
                out.append(None)
                handle.reset()
    finally:
        handle.close()
    return out


def name_misconception(module: str, key_point: str, learner, exclude: Path | None = None) -> str:
    """One line naming the registered wrong answer the learner's last call matches, or ''."""
    call = getattr(learner, "last_call", None)
    if not call or not hasattr(learner, "zygote"):
        return ""
    got = _outcome(call)
    if got is None or (call.get("seconds") or 0) > SLOW_CALL_S:
        return ""
    pool = candidates(module, key_point, exclude=exclude)[:MAX_CANDIDATES]
    reference = ROOT / "solutions" / f"{module}.py"
    if not pool or not reference.is_file():
        return ""
    left = min(BUDGET_S, TOTAL_BUDGET_S - _spent[0])
    if left <= 0:
        return ""
    started = time.monotonic()
    try:
        return _closest(module, call["request"], got, reference, pool, learner, started + left)
    finally:
        _spent[0] += time.monotonic() - started


def _closest(module, request, got, reference, pool, learner, deadline) -> str:
    [right] = _replay(reference, module, [request], learner)
    if right is None:
        return ""
    # The key point's other answered calls break ties: a wrong answer that would have failed
    # where the learner's answer did not is not the learner's mistake.
    others = [c for c in getattr(learner, "recent_calls", [])[-5:-1] if _outcome(c) is not None
              and c.get("request") is not request][-3:]
    matches = []
    for path, line in pool:
        if time.monotonic() > deadline:
            break
        [theirs] = _replay(path, module, [request], learner)
        if theirs is None:
            continue
        wrong_by = _outcome_distance(theirs, right)
        if wrong_by <= 1e-12:
            continue  # this wrong answer is right on this input: it says nothing here
        off = _outcome_distance(got, theirs)
        if off <= 1e-9 or (off < 1e-3 and off < 0.05 * wrong_by):
            matches.append([off, line, path])
    if len(matches) > 1 and others:
        for m in matches:
            if time.monotonic() > deadline:
                break
            replies = _replay(m[2], module, [c["request"] for c in others], learner)
            agree = sum(r is not None and _outcome_distance(_outcome(c), r) <= 1e-6 for c, r in zip(others, replies))
            m.append(-agree)
    if not matches:
        return ""
    matches.sort(key=lambda m: (m[3] if len(m) > 3 else 0, m[0]))
    key = lambda m: (m[3] if len(m) > 3 else 0, round(m[0], 12))  # noqa: E731
    best = [m[1] for m in matches if key(m) == key(matches[0])]
    if len(best) == 1:
        return best[0]
    # Several known mistakes give this very result on this input: say so, the two first.
    second = best[1].split(": ", 1)[-1] if best[1].startswith("your result on this input") else \
        best[1].removeprefix("your result is what you get if you ")
    return f"{best[0]}; or if you: {second}" if best[1].startswith("your result is what you get") else \
        f"{best[0]}; or: {second}" + (f" (and {len(best) - 2} more)" if len(best) > 2 else "")


# ------------------------------------------------------------------ the plugin's entry point
_NO_INPUT = {"forbidden_call", "import_error", "not_implemented"}


def annotate(record: dict, exercise, key_point: str, learner, graded_file: str | None, *,
             name_mistakes: bool = True) -> dict:
    """Add the failing input and, for a wrong answer, the misconception to a failed key point's record."""
    call = getattr(learner, "last_call", None)
    if record.get("status") in _NO_INPUT:  # about the whole file, not about an input
        record.pop("example", None)
        return record
    if record.get("status") in ("passed", "not_verifiable", "check_error") or not call:
        return record
    record["example"] = "failing input: " + describe_call(exercise.module, call["request"])
    if name_mistakes and record.get("status") in ("failed", "error"):
        try:
            line = name_misconception(exercise.module, key_point, learner,
                                      exclude=Path(graded_file) if graded_file else None)
        except Exception:  # noqa: BLE001 - feedback must never turn a verdict into a grader bug
            line = ""
        if line:
            record["misconception"] = line
            record["hint"] = line + (f"\n{record['hint']}" if record.get("hint") else "")
    return record
