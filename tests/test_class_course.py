"""A small Chinese course through real nbgrader, as a new instructor runs it (docs/classroom.md):
the released notebook and the feedback page speak the course's language only, a written answer
nobody graded yet is "to grade" on the feedback page (never a graded zero), and nbgrader's
release_assignment / submit / collect work with the generated config (course id, an exchange
inside the course). One written exercise (C3), so nothing of the student's code is run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.course import catalog
from grader.course.catalog import ROOT

pytest.importorskip("nbgrader")

BIN = Path(sys.executable).parent


def env() -> dict:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTEST", "JUPYTER"))}
    out.update(PYTHONPATH=str(ROOT), PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    return out


def run(cwd: Path, *cmd: str, ok: bool = True) -> str:
    proc = subprocess.run(list(cmd), cwd=cwd, env=env(), capture_output=True, text=True, timeout=600)
    if ok:
        assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
    return proc.stdout + proc.stderr


def nbgrader(cwd: Path, *args: str, ok: bool = True) -> str:
    return run(cwd, str(BIN / "nbgrader"), *args, ok=ok)


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    course = tmp_path_factory.mktemp("zh") / "toolbox101"
    run(ROOT, sys.executable, "-m", "grader.cli", "classroom", "build", str(course), "--only", "C3", "--lang", "zh")
    nbgrader(course, "generate_assignment", "set_C")
    return course


def english_words(text: str) -> list[str]:
    """nbgrader's default English a student could read."""
    found = [w for w in ("YOUR ANSWER HERE", "YOUR CODE HERE", "No response", "Score:") if w in text]
    return found


def test_the_released_notebook_has_no_english_stub(course):
    release = (course / "release" / "set_C" / "set_C.ipynb").read_text()
    assert not english_words(release)
    from grader.classroom import pipeline
    from grader.i18n import lookup

    assert lookup(pipeline.TEXT_STUB, "zh") in release


def test_the_config_sets_validates_words_in_the_courses_language(course):
    from traitlets.config import Config

    from grader.classroom import pipeline
    from grader.i18n import lookup

    c = Config()
    pipeline.student_words(c)
    assert "{num_failed}" in c.Validator.failed_warning  # nbgrader fills it in
    assert c.Validator.failed_warning.strip() == lookup(pipeline.VALIDATE_WARNINGS["failed_warning"], "en")
    assert "pipeline.student_words(c)" in (course / "nbgrader_config.py").read_text()


def test_an_ungraded_written_answer_is_to_grade_on_the_feedback_page(course):
    """bob wrote C3's answer (nobody graded it yet) and left the answer cell as released; ann left
    everything as released. nbgrader's page said "评语: No response." and "得分：0.0 / 4.0"."""
    from grader.classroom import pipeline
    from grader.i18n import lookup

    release = nbformat.read(course / "release" / "set_C" / "set_C.ipynb", as_version=4)
    for student in ("bob", "ann"):
        nb = nbformat.from_dict(release)
        if student == "bob":
            written = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "C3__written")
            written.source = "我的回答：对比两种方法的取舍。"
        folder = course / "submitted" / student / "set_C"
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / "set_C.ipynb")
    nbgrader(course, "autograde", "set_C")
    nbgrader(course, "generate_feedback", "set_C")
    bob = (course / "feedback" / "bob" / "set_C" / "set_C.html").read_text()
    ann = (course / "feedback" / "ann" / "set_C" / "set_C.html").read_text()
    for page in (bob, ann):
        assert not english_words(page), english_words(page)
        assert lookup(pipeline.NO_RESPONSE, "zh") in page  # the answer cell left as released
    to_grade = lookup(pipeline.FEEDBACK_WORDS["to_grade"], "zh")
    points = float(len(catalog.get("C3").key_points))
    assert to_grade.format(max=points) in bob
    assert f"C3__written</a> ({to_grade.format(max=points)})" in bob  # not "得分：0.0 / 4.0"
    pending = lookup(pipeline.FEEDBACK_WORDS["pending"], "zh").split("{")[0]
    assert pending and pending in bob
    # ann's written answer is as released: "no response", a zero, nothing left to grade
    assert to_grade.split("{")[0] not in ann and pending not in ann


def test_release_then_collect_through_the_courses_exchange(course, tmp_path):
    """nbgrader release_assignment / collect stopped with "[CRITICAL] No course id specified"."""
    config = (course / "nbgrader_config.py").read_text()
    assert "c.CourseDirectory.course_id = 'toolbox101'" in config
    exchange = course / "exchange"
    assert f"c.Exchange.root = {str(exchange)!r}" in config
    nbgrader(course, "release_assignment", "set_C", "--force")
    assert (exchange / "toolbox101" / "outbound" / "set_C" / "set_C.ipynb").is_file()
    student = tmp_path / "student"
    student.mkdir()
    opts = ["--CourseDirectory.course_id=toolbox101", f"--Exchange.root={exchange}"]
    nbgrader(student, "fetch_assignment", "set_C", *opts)
    nbgrader(student, "submit", "set_C", *opts)
    shutil.rmtree(course / "submitted", ignore_errors=True)
    nbgrader(course, "collect", "set_C")
    collected = list((course / "submitted").glob("*/set_C/set_C.ipynb"))
    assert len(collected) == 1, list((course / "submitted").rglob("*"))
