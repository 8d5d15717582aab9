"""A stub asks, it never answers (issue 14).

Every stub in exercises/ quotes its course question (the Chinese original, verbatim) and contains
none of the answers its catalog entry lists (``forbidden``) nor any of the course's must-remember
values every stub must keep out (``FORBIDDEN_EVERYWHERE``). The catalog's re-read pointers quote
the course's headings verbatim, so that searching the course text finds them, and its claims (the
"what is checked" line, printed before any answer is revealed) give no answer away either.

The course text is read from ``$TOOLBOX_COURSE_DIR`` or ``../shared/course`` beside the project;
the checks that need it are skipped where it is absent. ``$TOOLBOX_STUBS_DIR`` points the stub
checks at another folder of stubs (e.g. an older version, to see these tests fail on it).
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from grader.course import catalog
from grader.course.catalog import FORBIDDEN_EVERYWHERE, ROOT

COURSE_DIR = Path(os.environ.get("TOOLBOX_COURSE_DIR") or ROOT.parent / "shared" / "course")
STUBS_DIR = Path(os.environ.get("TOOLBOX_STUBS_DIR") or ROOT / "exercises")
EXERCISES = list(catalog.CATALOG)
IDS = [ex.id for ex in EXERCISES]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _course_text() -> str:
    files = sorted(COURSE_DIR.glob("*.txt")) if COURSE_DIR.is_dir() else []
    if not files:
        pytest.skip(f"the course text is not here ({COURSE_DIR})")
    return _flat("\n".join(f.read_text(encoding="utf-8") for f in files))


def _stub_text(ex: catalog.Exercise, folder: Path | None = None) -> str:
    """The stub as a reader sees it: its source and its docstrings as Python evaluates them."""
    src = ((folder or STUBS_DIR) / f"{ex.module}.py").read_text(encoding="utf-8")
    tree = ast.parse(src)
    docs = [ast.get_docstring(n, clean=True) or "" for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))]
    return _flat(src + "\n" + "\n".join(docs))


def _found(item: str, text: str) -> bool:
    """Case-insensitive; an item starting or ending with a letter or digit matches there as a whole word."""
    pattern = re.escape(_flat(item))
    if item[:1].isalnum():
        pattern = r"(?<![0-9A-Za-z_])" + pattern
    if item[-1:].isalnum():
        pattern += r"(?![0-9A-Za-z_])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def _banned(ex: catalog.Exercise) -> list[str]:
    """Every answer this stub must not contain; an everywhere-item its own question states is allowed."""
    question = _flat(ex.question)
    return [i for i in FORBIDDEN_EVERYWHERE if not _found(i, question) and i not in ex.allowed] + list(ex.forbidden)


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_stub_quotes_its_course_question(ex):
    assert ex.question, f"{ex.id}: the catalog entry names no course question"
    doc = _flat(ast.get_docstring(ast.parse((STUBS_DIR / f"{ex.module}.py").read_text(encoding="utf-8"))) or "")
    assert _flat(ex.question) in doc, f"{ex.id}: the stub's docstring does not quote its course question {ex.question!r}"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_question_is_the_courses_own(ex):
    assert _flat(ex.question) in _course_text(), f"{ex.id}: {ex.question!r} is not verbatim in the course"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_stub_contains_no_answer(ex):
    text = _stub_text(ex)
    leaks = [item for item in _banned(ex) if _found(item, text)]
    assert not leaks, f"{ex.id}: exercises/{ex.module}.py gives away {leaks}"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_forbidden_list_is_meaningful(ex):
    assert ex.forbidden, f"{ex.id}: the catalog entry lists no answers its stub must not contain"
    stated = [item for item in ex.forbidden if _found(item, _flat(ex.question))]
    assert not stated, f"{ex.id}: the course's own question states {stated}: they cannot be forbidden"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_claims_give_no_answer(ex):
    """A claim is shown before anything is revealed (and in `grader list -v`, in the release notebooks)."""
    leaks = {kp.id: [i for i in _banned(ex) if _found(i, kp.claim)] for kp in ex.key_points}
    leaks = {k: v for k, v in leaks.items() if v}
    assert not leaks, f"{ex.id}: claims give away {leaks}"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_rereads_quote_course_headings(ex):
    course = _course_text()
    for kp in ex.key_points:
        english, sep, chinese = kp.reread.partition(" — ")
        assert sep and english.startswith(("part", "L1")), f"{ex.id}.{kp.id}: {kp.reread!r}"
        for heading in chinese.split(" · "):
            assert _flat(heading) in course, f"{ex.id}.{kp.id}: {heading!r} is not a heading of the course"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_every_key_point_has_a_lesson(ex):
    missing = [kp.id for kp in ex.key_points if not kp.lesson]
    assert not missing, f"{ex.id}: key points without the course's lesson: {missing}"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_lessons_quote_the_course_verbatim(ex):
    """What a lesson puts in 「」 is the course's own line, so that searching the course finds it."""
    course = _course_text()
    for kp in ex.key_points:
        for quote in re.findall(r"「(.+?)」", kp.lesson):
            assert _flat(quote) in course, f"{ex.id}.{kp.id}: 「{quote}」 is not verbatim in the course"


def test_the_guard_catches_a_stub_that_answers(tmp_path):
    """The guard itself: a stub that states its answer is caught (the old A6 stub's own words)."""
    ex = catalog.get("A6")
    (tmp_path / f"{ex.module}.py").write_text(
        '"""A6 — 16 bytes per trainable parameter: full_finetune_bytes(3 * 10**9) == 48 * 10**9, 48 GB."""\n')
    text = _stub_text(ex, tmp_path)
    assert {"16 bytes", "48 GB"} <= {i for i in _banned(ex) if _found(i, text)}
    assert _flat(ex.question) not in text
