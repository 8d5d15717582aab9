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
time, under a budget (:data:`BUDGET_S` per key point, :data:`TOTAL_BUDGET_S` per exercise; skipped when the failing call
itself took
longer than :data:`SLOW_CALL_S`, e.g. a training run). ``grade_exercise(..., name_mistakes=False)``
(``--no-misconceptions``) turns the replay off: the project's harness grades hundreds of mutants.
"""

from __future__ import annotations

import ast
import math
import os
import re
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from grader.course.catalog import ROOT
from grader.i18n import Message, _, catalog_path, show

BUDGET_S = 20.0  # replays per failed key point, all together
TOTAL_BUDGET_S = 60.0  # replays of one check process (one exercise), all key points together
_spent = [0.0]
SLOW_CALL_S = 4.0  # a failing call slower than this (training, profiling) is not replayed
MAX_CANDIDATES = 12
MUTANTS = ROOT / "solutions" / "mutants"


# ------------------------------------------------------------------ the failing input
DICT_KEYS = 8  # keys of a dict shown besides the ones that decide


def describe(value: Any, depth: int = 0, first: tuple[str, ...] = ()) -> str:
    """A short, readable form of one argument or result. A dict shows the keys ``first`` (those the
    check reads: see ``mistakes.shows``) and keys whose value is None (absent settings, e.g.
    ``head_dim: None``, decide as much) before the others."""
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
    # what is cut is counted as code says it (len=...): the same in every language
    if isinstance(value, str):
        return repr(value) if len(value) <= 80 else repr(value[:60]) + f"… (len={len(value)})"
    if isinstance(value, bytes):
        return f"<bytes len={len(value)}>"
    if isinstance(value, slice):  # as the call got it: "(:, -1:)" outside brackets is no Python
        if value.step is not None:
            return f"slice({value.start!r}, {value.stop!r}, {value.step!r})"
        return f"slice({value.stop!r})" if value.start is None else f"slice({value.start!r}, {value.stop!r})"
    if isinstance(value, dict):
        items = list(value.items())
        decide = [(k, v) for k, v in items if k in first] + [(k, v) for k, v in items if k not in first and v is None]
        rest = [(k, v) for k, v in items if k not in first and v is not None]
        shown = decide + rest[: max(0, DICT_KEYS - len(decide))]
        text = ", ".join(f"{k}: {describe(v, depth + 1)}" for k, v in shown)
        return "{" + text + (f", … (len={len(items)})" if len(shown) < len(items) else "") + "}"
    if isinstance(value, (list, tuple)):
        open_, close = ("(", ")") if isinstance(value, tuple) else ("[", "]")
        head = ", ".join(describe(v, depth + 1) for v in value[:6])
        if len(value) == 1 and isinstance(value, tuple):
            head += ","
        return open_ + head + (f", … (len={len(value)})" if len(value) > 6 else "") + close
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


def _first_keys(key_point: str, function: str) -> tuple[str, ...]:
    from grader.checks.support.mistakes import SHOWN_FIRST

    return SHOWN_FIRST.get((key_point, function)) or SHOWN_FIRST.get(("*", function)) or ()


def describe_call(module: str, request: dict, limit: int = 700, key_point: str = "") -> str:
    args, kwargs = request.get("args", []), request.get("kwargs", {})
    first = _first_keys(key_point, request.get("name") or request.get("driver", "").rpartition(":")[2])
    describe_ = lambda v: describe(v, 0, first)  # noqa: E731
    if request.get("op") == "drive":
        name, names = request.get("driver", "").rpartition(":")[2], ()
        parts = [describe_(a) for a in args] + [f"{k}={describe_(v)}" for k, v in kwargs.items()]
        text = "".join(", " + p for p in parts) + ")"
        text = text if len(text) <= limit else text[: limit - 1] + "…"
        return _("the grader's driver {driver}(your module{args}", driver=name, args=text)
    else:
        name = request.get("name", "?")
        names = _signature(module, name)
        parts = [f"{names[i]}={describe_(a)}" if i < len(names) else describe_(a) for i, a in enumerate(args)]
        parts += [f"{k}={describe_(v)}" for k, v in kwargs.items()]
        text = f"{name}({', '.join(parts)})"
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ------------------------------------------------------------------ the misconception
def _registered(path: Path) -> tuple[tuple[str, ...], str, bool]:
    """A wrong answer's ``KILLED_BY`` and its line in English: its ``MISCONCEPTION`` (True: phrased
    "you ...") or else its docstring's first sentence (False). The line is an id of the ``mutants``
    catalog (:func:`update_catalog`), shown in the reader's language."""
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError):
        return (), "", False
    killed, said = (), ""
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if node.targets[0].id == "KILLED_BY":
                killed = tuple(value)
            elif node.targets[0].id == "MISCONCEPTION":
                said = str(value).rstrip(".")
    if said:
        return killed, said, True
    doc = " ".join((ast.get_docstring(tree) or "").split())
    return killed, re.split(r"(?<!\.)\.\s", doc + " ")[0].rstrip("."), False  # an ellipsis ends no sentence


def _killed_by_and_line(path: Path) -> tuple[tuple[str, ...], str]:
    killed, said, phrased = _registered(path)
    if not said:
        return killed, ""
    mistake = Message.of(said)  # a message field: said again in the reader's language
    if phrased:
        return killed, _("your result is what you get if you {mistake}", mistake=mistake)
    return killed, _("your result on this input is exactly what a known mistake gives: {mistake}", mistake=mistake)


MUTANTS_DOMAIN = "mutants"


def mutant_lines() -> dict[str, list[str]]:
    """Every registered wrong answer's line (the ``mutants`` catalog's ids), with the files saying it."""
    out: dict[str, list[str]] = {}
    for path in sorted(MUTANTS.glob("*/*.py")):
        if not path.name.startswith("_") and (said := _registered(path)[1]):
            out.setdefault(said, []).append(path.relative_to(ROOT).as_posix())
    return out


def update_catalog() -> None:
    """``make messages``: the mutants' lines into grader/locale/zh/LC_MESSAGES/mutants.po (new ones
    empty, for a translator; gone ones dropped)."""
    from grader.course.stub_docs import update_catalog as update

    lines = mutant_lines()
    update(sorted(lines), catalog_path(MUTANTS_DOMAIN), domain=MUTANTS_DOMAIN, locations=lines)


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
        return max((distance(x, y) for x, y in zip(a, b, strict=True)), default=0.0)
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


def _replay(path: Path, module: str, requests: list[dict], like, cpu=None) -> list[tuple[str, Any] | None]:
    """Run ``requests`` against the module at ``path`` in one fresh learner process like ``like``;
    the first one's outcome decides whether the others are run at all (None: no outcome)."""
    from grader.isolation.learner import Learner, LearnerError, LearnerRaised

    handle = Learner(
        module,
        path,
        call_timeout_s=min(like.call_timeout_s, 2 * SLOW_CALL_S),
        import_timeout_s=like.import_timeout_s,
        memory_gib=like.memory_gib,
        hidden=like.hidden,
        zygote=like.zygote,
        inputs=getattr(getattr(like, "_sandbox", None), "inputs", None),
    )  # the same generated files
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
        if cpu is not None:
            try:
                cpu.extra += handle.cpu_times()["self_s"]
            except Exception:  # noqa: BLE001 - it died: its time is not known
                pass
        handle.close()
    return out


def name_misconception(
    module: str, key_point: str, learner, exclude: Path | None = None, *, call: dict | None = None, cpu=None
) -> str:
    """One line naming the registered wrong answer the learner's call matches, or ''."""
    call = call or getattr(learner, "last_call", None)
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
        return _closest(module, call["request"], got, reference, pool, learner, started + left, key_point, cpu)
    finally:
        _spent[0] += time.monotonic() - started


def _probe_request(key_point: str, request: dict) -> dict | None:
    """A non-degenerate input of the same function, declared with the key point's properties."""
    from grader.checks.support import mistakes

    if request.get("op") != "call":
        return None
    for m in mistakes.for_key_point(key_point, request.get("name")):
        if m.probe is not None:
            return {"op": "call", "name": m.function, "args": list(m.probe[0]), "kwargs": dict(m.probe[1])}
    return None


def _closest(module, request, got, reference, pool, learner, deadline, key_point="", cpu=None) -> str:
    from grader.checks.support.mistakes import Raised

    # One process per candidate, the wrong answers that are right on this input left out at once:
    # the reference's outcome, then every candidate's, on the failing input and on the probe.
    probe = _probe_request(key_point, request)
    requests = [request] + ([probe] if probe else [])
    right = _replay(reference, module, requests, learner, cpu)
    if right[0] is None:
        return ""
    matches = []
    for path, line in pool:
        if time.monotonic() > deadline:
            break
        theirs = _replay(path, module, requests, learner, cpu)
        if theirs[0] is None:
            continue
        wrong_by = _outcome_distance(theirs[0], right[0])
        if wrong_by <= 1e-12:
            continue  # this wrong answer is right on this input: it says nothing here
        off = _outcome_distance(got, theirs[0])
        if off <= 1e-9 or (off < 1e-3 and off < 0.05 * wrong_by):
            matches.append((off, line, path, theirs[1] if probe else None))
    if not matches:
        return ""
    if probe and right[1] is not None:
        # Before saying "exactly what a known mistake gives": the same on a non-degenerate input
        # (on T = 1 or heads = head_dim several mistakes give the same value as each other).
        mine = _ask(learner, probe["name"], probe["args"], probe["kwargs"])
        if mine is None:
            return ""
        mine_outcome = ("raised", mine.type_name) if isinstance(mine, Raised) else ("value", mine)
        matches = [
            m
            for m in matches
            if m[3] is not None
            and _outcome_distance(mine_outcome, m[3]) <= 1e-6
            and _outcome_distance(m[3], right[1]) > 1e-12
        ]
    elif probe:
        return ""
    others = [
        c
        for c in getattr(learner, "recent_calls", [])[-5:-1]
        if _outcome(c) is not None and c.get("request") is not request
    ][-3:]
    if len({m[1] for m in matches}) > 1 and others:
        # The key point's other answered calls: a wrong answer that would have answered them
        # otherwise than the learner did is not the learner's mistake.
        kept = []
        for m in matches:
            if time.monotonic() > deadline:
                return ""
            replies = _replay(m[2], module, [c["request"] for c in others], learner, cpu)
            if all(
                r is not None and _outcome_distance(_outcome(c), r) <= 1e-6
                for c, r in zip(others, replies, strict=True)
            ):
                kept.append(m)
        matches = kept
    if len({m[1] for m in matches}) != 1:
        return ""  # several known mistakes agree on every input tried: naming one could misname
    return min(matches, key=lambda m: m[0])[1]


# ------------------------------------------------------------------ properties (what the answer does)
def _as_got(outcome):
    from grader.checks.support.mistakes import Raised

    kind, value = outcome
    return Raised(value) if kind == "raised" else value


def _holds(m, got, args, kwargs) -> bool:
    try:
        return bool(m.holds(got, *args, **kwargs))
    except Exception:  # noqa: BLE001 - a predicate that cannot judge this answer does not name it
        return False


def _ask(learner, function: str, args, kwargs):
    """The learner's answer on a probe input, as a property sees it (None: no answer)."""
    from grader.checks.support.mistakes import Raised
    from grader.isolation.learner import LearnerError, LearnerRaised

    try:
        return learner.call(function, *args, **kwargs)
    except LearnerRaised as exc:
        return Raised(exc.type_name)
    except LearnerError:
        return None


def name_by_property(key_point: str, learner) -> tuple[str, list]:
    """The one declared property (grader/checks/support/mistakes.py) the learner's failing call
    shows, confirmed on the property's non-degenerate probe input; '' when none or several do.
    Also returns the properties that held on the failing call (for the mutant replay's probe)."""
    from grader.checks.support import mistakes

    call = getattr(learner, "last_call", None)
    request = (call or {}).get("request") or {}
    got = _outcome(call) if call else None
    if got is None or request.get("op") != "call":
        return "", []
    args, kwargs = list(request.get("args", [])), dict(request.get("kwargs", {}))
    declared = mistakes.for_key_point(key_point, request.get("name"))
    held = [m for m in declared if _holds(m, _as_got(got), args, kwargs)]
    if not held:
        return "", []
    answers: dict[int, Any] = {}  # one learner call per distinct probe
    confirmed = []
    for m in held:
        if m.probe is None:
            continue  # never named on one input alone: it may be degenerate
        p_args, p_kwargs = m.probe
        key = id(m.probe)
        if key not in answers:
            answers[key] = _ask(learner, m.function, list(p_args), dict(p_kwargs))
        if answers[key] is not None and _holds(m, answers[key], list(p_args), dict(p_kwargs)):
            confirmed.append(m)
    sentences = sorted({m.sentence() for m in confirmed})
    return (sentences[0] if len(sentences) == 1 else ""), held


# ------------------------------------------------------------------ the plugin's entry point
_NO_INPUT = {"forbidden_call", "import_error", "not_implemented"}
MODE = os.environ.get("GRADER_NAMING", "")  # "mutants": the replay alone, as before properties (bench)


def annotate(
    record: dict, exercise, key_point: str, learner, graded_file: str | None, *, name_mistakes: bool = True
) -> dict:
    """Add the failing input and, for a wrong answer, the misconception to a failed key point's record."""
    call = getattr(learner, "last_call", None)
    if record.get("status") in _NO_INPUT:  # about the whole file, not about an input
        record.pop("example", None)
        return record
    if record.get("status") in ("passed", "not_verifiable", "check_error") or not call:
        record["example"] = hypothesis_free(record.get("example", ""))
        if not record["example"]:
            record.pop("example")
        return record
    if states_the_call(show(record.get("message", ""), "en"), call["request"].get("name")):
        record.pop("example", None)  # the check's words already give the input: shown once (B2 showed it twice)
    else:
        record["example"] = _(
            "failing input: {call}", call=describe_call(exercise.module, call["request"], key_point=key_point)
        )
    if name_mistakes and record.get("status") in ("failed", "error"):
        cpu = _Cpu(learner)
        line = ""
        try:
            if MODE != "mutants":
                line, _found = name_by_property(key_point, learner)
            # The replay (a process per registered wrong answer, ~0.5 s of CPU each) only where no
            # property is declared for the failing call's function: a key point's properties cover
            # its mutants' classes in that function, in-process (a loop's mutants fail in another call).
            if not line and (MODE == "mutants" or replay_wanted(key_point, call["request"].get("name"))):
                line = name_misconception(
                    exercise.module,
                    key_point,
                    learner,
                    call=call,
                    cpu=cpu,
                    exclude=Path(graded_file) if graded_file else None,
                )
        except Exception:  # noqa: BLE001 - feedback must never turn a verdict into a grader bug
            line = ""
        record["naming_cpu_s"] = round(cpu.spent(), 3)
        if line:
            record["misconception"] = line
            record["hint"] = _("{mistake}\n{hint}", mistake=line, hint=record["hint"]) if record.get("hint") else line
    return record


def states_the_call(message: str, function: str | None) -> bool:
    """Whether a check's ``message`` writes out a call of ``function`` with every argument a literal
    ("verdict(scores_a=[0.61, 0.6], scores_b=[0.62, 0.6], n_questions=80)"): then the failing input
    would say it again. A call with a name for an argument ("diff_records(a, b)", "activation_bytes(
    config, batch=4)") leaves the input to the failing input line."""
    if not function:
        return False
    for m in re.finditer(rf"(?<![\w.]){re.escape(function)}\(", message):
        depth, end = 0, None
        for i in range(m.end() - 1, len(message)):
            depth += {"(": 1, ")": -1}.get(message[i], 0)
            if depth == 0:
                end = i + 1
                break
        if end is None:
            continue
        try:
            call = ast.parse(message[m.start() : end], mode="eval").body
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                if ast.literal_eval(arg) is Ellipsis:  # "verdict(...)": the arguments left out
                    raise ValueError
        except (SyntaxError, ValueError, TypeError, AttributeError):
            continue
        return bool(call.args or call.keywords)
    return False


def replay_wanted(key_point: str, function: str | None) -> bool:
    """Replay the registered wrong answers unless a property is declared for this key point's
    failing function (a loop's wrong answers, e.g. P2's scheduler stepped first, fail in ``drive``)."""
    from grader.checks.support.mistakes import for_key_point

    return not for_key_point(key_point, function)


class _Cpu:
    """CPU seconds the naming costs: this check process, the learner's process (probe calls) and
    the replayed wrong answers' processes (added by :func:`_replay`)."""

    def __init__(self, learner):
        self.learner, self.extra = learner, 0.0
        self.t0 = time.process_time()
        self.l0 = self._learner_cpu()

    def _learner_cpu(self) -> float:
        try:
            return self.learner.cpu_times()["self_s"]
        except Exception:  # noqa: BLE001 - not running (e.g. after a crash)
            return 0.0

    def spent(self) -> float:
        return time.process_time() - self.t0 + max(0.0, self._learner_cpu() - self.l0) + self.extra


_HYPOTHESIS_HEAD = re.compile(
    r"^\s*(Falsifying (explicit )?example|Failing test case|Trying example|You can reproduce|"
    r"@reproduce_failure|Explanation:|The test sometimes|Unreliable test|Draw \d+ \(|"
    r"[\w.]*Hypothesis|\),?\s*$)"
)
_ARG = re.compile(r"^ {4}([A-Za-z_]\w*)=(.*)$")  # Hypothesis prints one argument a line, 4 spaces in
_FIXTURES = {"learner", "exercise", "learner_factory", "figure", "shared_tmp_path", "tmp_path", "request"}


def _short_text(text: str, limit: int = 80) -> str:
    """An argument as Hypothesis printed it, short: an object by its type, a long value cut."""
    text = text.strip().rstrip(",")
    if len(text) <= limit:
        return text
    head = re.match(r"^<?([A-Za-z_][\w.]*)\(", text)
    if head and not text.startswith(("(", "[", "{")):
        return f"<{head.group(1)}>"
    return text[: limit - 20] + f"… ({len(text)} chars)"


_HYPOTHESIS_CALL = re.compile(r"^\s*(Falsifying (explicit )?example|Failing test case|Trying example): \S*\($")


def without_hypothesis(text: str) -> str:
    """``text`` less Hypothesis's own lines ("Failing test case: test_x(" and its arguments up to
    the closing parenthesis, its reproduction advice), whatever else it says kept: the last net
    under every text a learner reads (:func:`hypothesis_free` makes a failing input of them)."""
    if not text or not any(_HYPOTHESIS_HEAD.match(ln) for ln in text.splitlines()):
        return text or ""
    out, in_call = [], False
    for line in text.splitlines():
        if in_call:
            in_call = not re.match(r"^\),?\s*$", line)
        elif _HYPOTHESIS_CALL.match(line):
            in_call = True
        elif not (_HYPOTHESIS_HEAD.match(line) and not re.match(r"^\s*\),?\s*$", line)):
            out.append(line)
    return "\n".join(out).strip("\n")


def hypothesis_free(text: str) -> str:
    """A check's notes without Hypothesis's own wording (its test's name, its reproduction advice)
    and without the fixtures: only the drawn arguments reach a learner, each short, as
    "failing input: ...". A note that is not Hypothesis's is returned as it is."""
    if not text or not any(_HYPOTHESIS_HEAD.match(ln) for ln in text.splitlines()):
        return text or ""
    args: list[list[str]] = []
    for line in text.splitlines():
        if _HYPOTHESIS_HEAD.match(line) or re.match(r"^\s*test_\w*\($", line):
            continue
        m = _ARG.match(line)
        if m:
            args.append([m.group(1), m.group(2)])
        elif args:  # a value printed on several lines (a dict, an object's repr)
            args[-1][1] += " " + line.strip()
    shown = [f"{name}={_short_text(value)}" for name, value in args if name not in _FIXTURES]
    return _("failing input: {call}", call=", ".join(shown)) if shown else ""
