"""Attempts per key point, and what a failure may show.

Some key points check a fact the course asks you to recall (``recall=True`` in the catalog: R's
facts, the seven items of a run record, the label ignore index, a course number or threshold).
Their expected value *is* the fact, so a failure first shows only what was checked, on which
input, what came back and where to re-read; the expected value, the hint (and the known mistake
it names, which states the rule it breaks) and the course's lesson come once the same key point has failed
``REVEAL_AFTER`` times, or when the learner asks
(``make grade REVEAL=1``, ``grader grade --reveal``). Other key points show everything at the first
failure, except a hint that states the answer
(``hint_answers`` in the catalog, or a hint naming one of the exercise's ``forbidden`` items or a fact
of set R: ``catalog.states_withheld``): it is withheld as a recall fact's is, the expected value still
shown; so is a course line (lesson) that states one. One rule for everything a failure prints: nothing
states what a recall key point of the same report still withholds (``_one_reveal_at_a_time``).

An attempt is a change of the learner's code: a failure counts when the source of the function(s)
the key point calls (named in its message or failing input; the whole module's functions when none
is named; normalised by ``ast.unparse``, so comments and layout do not count) differs from the
code already counted for that key point. Re-grading unchanged code, even code that answers at
random, or editing another function of the same file, is not another attempt. (Without a readable
module, as in the classroom's copies, a distinct (status, message, value) counts instead.) The reveal
is the learner's choice by design, not a fortress: code edited three times reveals; the closed-book
level comes from the quiz. Attempts are counted per learner
target (the folder graded) and exercise, in a JSON file beside the results cache
(``<cache dir>/<target key>.attempts.json``, as :mod:`grader.engine.cache` names its own).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import threading
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from pathlib import Path

from grader.course import catalog
from grader.course.catalog import item_pattern
from grader.engine.results import ExerciseResult, KeyPointResult
from grader.i18n import _, show
from grader.isolation import files

REVEAL_AFTER = 3
COUNTED = {"failed", "bad_output", "error"}  # a wrong answer; not "not implemented", a timeout or a crash


def withheld_note(count: int) -> str:
    return _(
        "the expected value is the fact this key point asks you to recall: re-read the place below. "
        "It is shown after {after} different wrong answers here (this was {count}; {left} to go), "
        "or with `make grade REVEAL=1` (`.venv/bin/grader grade --reveal`).",
        after=REVEAL_AFTER,
        count=count,
        left=REVEAL_AFTER - count,
    )


def withheld_unrecorded() -> str:
    """The recall note where nothing counts attempts (the classroom)."""
    return _("the expected value is the fact this key point asks you to recall: re-read the place below.")


def hint_withheld_note(count: int | None) -> str:
    if count is None:
        return _("The hint states the answer: re-read the place below first.")
    return _(
        "The hint states the answer: it is shown after {after} different wrong answers here "
        "(this was {count}; {left} to go), or with `make grade REVEAL=1` (`.venv/bin/grader grade --reveal`).",
        after=REVEAL_AFTER,
        count=count,
        left=REVEAL_AFTER - count,
    )


def _target_key(target: Path) -> str:
    return hashlib.sha256(str(Path(target).resolve()).encode()).hexdigest()[:16]


def _answer_digest(kp: KeyPointResult) -> str:
    """One wrong answer, whatever the language it was graded in (its English text)."""
    said = (kp.status, show(kp.message or "", "en"), show(kp.got or "", "en"))
    return hashlib.sha256("\0".join(said).encode()).hexdigest()[:16]


def _functions(source: str) -> dict[str, str]:
    """The module's top-level functions and classes, each as ``ast.unparse`` writes it (comments,
    blank lines and layout do not count)."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    return {
        node.name: ast.unparse(node)
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }


def code_digest(kp: KeyPointResult, source: str) -> str | None:
    """An attempt is a change of the code the key point calls: the functions its message or failing
    input names (all of the module's when it names none), normalised; None without readable code."""
    funcs = _functions(source)
    if not funcs:
        return None
    said = " ".join((kp.message or "", kp.example or "", kp.got or ""))
    called = sorted(name for name in funcs if re.search(rf"(?<![\w.]){re.escape(name)}\(", said)) or sorted(funcs)
    return hashlib.sha256("\0".join([kp.status, *(funcs[n] for n in called)]).encode()).hexdigest()[:16]


class Attempts:
    """Distinct wrong answers per (exercise, key point) of one target folder."""

    def __init__(self, target: Path, cache_dir: Path | None = None):
        if cache_dir is None:
            from grader.engine.cache import CACHE_DIR as cache_dir
        self.target = Path(target)
        self.path = Path(cache_dir) / f"{_target_key(target)}.attempts.json"
        self._lock = threading.Lock()
        try:  # as the results cache reads its own: never through a link, never a FIFO
            self._seen: dict = json.loads(files.read_regular(self.path, 16 << 20))
        except (OSError, ValueError, files.Refused):
            self._seen = {}

    def _source(self, exercise: str) -> str:
        """The graded module's text ('' when unreadable: then the answer itself is what counts)."""
        try:
            path = self.target / f"{catalog.get(exercise).module}.py"
            return files.read_regular(path).decode("utf-8", "replace")
        except (KeyError, OSError, files.Refused):
            return ""

    def count(self, exercise: str, key_point: str) -> int:
        return len(self._seen.get(exercise, {}).get(key_point, []))

    def record(self, results: dict[str, ExerciseResult]) -> None:
        """Count this run's wrong answers; save at once (an interrupted run keeps them)."""
        changed = False
        with self._lock:
            for res in results.values():
                source = self._source(res.exercise)
                for kp in res.key_points:
                    if kp.status not in COUNTED:
                        continue
                    seen = self._seen.setdefault(res.exercise, {}).setdefault(kp.key_point, [])
                    digest = (code_digest(kp, source) if source else None) or _answer_digest(kp)
                    if digest not in seen and len(seen) < REVEAL_AFTER:
                        seen.append(digest)
                        changed = True
            if changed:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                files.replace_file(self.path, json.dumps(self._seen).encode(), 0o600)


def shown(ex: catalog.Exercise, kp: KeyPointResult, *, count: int | None, reveal: bool = False) -> KeyPointResult:
    """What a failed key point may show: a copy with the course's lesson added, or, for a recall key
    point not yet revealed, with the expected value, the hint and the lesson withheld.

    ``count``: the distinct wrong answers recorded for it (None: nothing is counted here, as in the
    classroom, so a recall key point stays withheld unless ``reveal``)."""
    if kp.status not in COUNTED:  # passed, not verifiable, or nothing answered (not implemented, a crash)
        return kp
    try:
        point = ex.key_point(kp.key_point)
    except KeyError:
        return kp
    withheld = not reveal and (count is None or count < REVEAL_AFTER)
    if point.recall and withheld:
        note = withheld_note(count or 0) if count is not None else withheld_unrecorded()
        return replace(kp, expected=None, hint=note, lesson="", misconception="")
    if withheld and (point.hint_answers or catalog.states_withheld(ex, kp.hint, kp.misconception)):
        # a hint that states the answer is a recalled fact's hint: the value computed stays shown
        return replace(kp, hint=hint_withheld_note(count), lesson="", misconception="")
    if withheld and catalog.states_withheld(ex, point.lesson):
        return replace(kp, lesson="")  # the course's line states a withheld fact: shown with the reveal
    return replace(kp, lesson=point.lesson)


def gate(
    results: dict[str, ExerciseResult], attempts: Attempts | None, *, reveal: bool = False
) -> dict[str, ExerciseResult]:
    """``results`` as the learner may see them (copies; the cached results are left as they are).

    One withholding rule per report: a value withheld from one key point is withheld wherever
    another key point of the same report would print it (its message, got, hint or input)."""
    out = {}
    withheld: dict[str, set[str]] = {}  # a withheld value -> the exercises that withhold it
    for ex_id, res in results.items():
        try:
            ex = catalog.get(ex_id)
        except KeyError:
            out[ex_id] = res
            continue
        kps = [
            shown(ex, kp, count=attempts.count(ex_id, kp.key_point) if attempts else None, reveal=reveal)
            for kp in res.key_points
        ]
        kps = _one_reveal_at_a_time(ex, res.key_points, kps)
        for kp, s in zip(res.key_points, kps, strict=True):
            if kp.expected is not None and s.expected is None and _telling(value := show(kp.expected).strip()):
                withheld.setdefault(value, set()).add(ex_id)
        out[ex_id] = replace(res, key_points=kps)
    if withheld:
        # a word every learner reads in the stubs' contracts is hidden only in the exercise that withholds
        # it (C4's withheld "activations" is a key P3's contract names: P3's hint stays readable)
        public = {v for v in withheld if not _NUMBER.fullmatch(v) and item_pattern(v).search(_contracts())}
        for ex_id, res in out.items():
            hidden = {v for v, owners in withheld.items() if ex_id in owners or v not in public}
            out[ex_id] = replace(res, key_points=[_redacted(kp, hidden) for kp in res.key_points])
    return out


@functools.cache
def _contracts() -> str:
    """Every stub's contract as the grader ships it (the stubs catalog, both languages): not the
    learner's copy of the stubs, which is theirs to edit."""
    from grader.course import stub_docs

    return " ".join(" ".join(f"{m.id} {m.string}".split()) for m in stub_docs.read_catalog() if m.id)


def _one_reveal_at_a_time(
    ex: catalog.Exercise, raw: list[KeyPointResult], kps: list[KeyPointResult]
) -> list[KeyPointResult]:
    """A key point revealed (or never withheld) may not print, in its hint, lesson or named mistake,
    an item of ``forbidden`` that a recall key point of the same report still withholds (R's einsum_pv
    revealed while einsum_qk is not: their course line states both)."""
    still = set()
    for kp, s in zip(raw, kps, strict=True):
        if kp.status in COUNTED and s.expected is None and kp.expected is not None:
            try:
                still |= set(ex.gives_away(ex.key_point(kp.key_point).lesson))
            except KeyError:
                continue
    if not still:
        return kps
    out = []
    for s in kps:
        texts = {"hint": s.hint, "lesson": s.lesson, "misconception": s.misconception}
        if s.expected is not None and any(still & set(ex.gives_away(t)) for t in texts.values() if t):
            s = replace(s, lesson="", misconception="", hint="" if set(ex.gives_away(s.hint or "")) & still else s.hint)
        out.append(s)
    return out


def withheld_mark() -> str:
    """What stands where a withheld value was, in the reader's language."""
    return _("[withheld]")


def _telling(value: str) -> bool:
    """A withheld value worth hiding elsewhere: not a yes/no or None (a coin toss, and words every
    config prints) and not one or two characters (a digit is in every input)."""
    return len(value) >= 3 and value not in ("True", "False", "None")


TEXT_FIELDS = ("message", "expected", "got", "hint", "example", "misconception")
# A number as a check may print it: 131072, 131,072, 131_072, -100, 0.5, 1.31e+05.
_NUMBER = re.compile(
    r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:_\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.]|,\d{3})"
)


def _number(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", "").replace("_", ""))
    except InvalidOperation:
        return None


def _redacted(kp: KeyPointResult, values: set[str]) -> KeyPointResult:
    """``kp`` with every withheld value, as a whole token, replaced by a mark in every text it shows;
    a withheld number by its value, however it is written (A9's 131072 bytes a token was in a
    message as ``gpu_bytes=131,072``)."""
    numbers = {n for v in values if _NUMBER.fullmatch(v) and (n := _number(v)) is not None}
    words = [v for v in values if not _NUMBER.fullmatch(v)]
    pattern = (
        re.compile("|".join(rf"(?<![\w.]){re.escape(v)}(?![\w.])" for v in sorted(words, key=len, reverse=True)))
        if words
        else None
    )
    mark = withheld_mark()

    def said_number(m: re.Match) -> str:
        return mark if _number(m.group()) in numbers else m.group()

    changes = {}
    for name in TEXT_FIELDS:
        value = getattr(kp, name)
        if not value:
            continue
        text = show(value)
        out = pattern.sub(mark, text) if pattern else text
        out = _NUMBER.sub(said_number, out) if numbers else out
        if out != text:
            changes[name] = out
    return replace(kp, **changes) if changes else kp
