"""End to end with real nbgrader: build, generate_assignment, autograde a small class, feedback,
export, and per-student mastery that agrees with ``make grade`` on the same code.

The class: one student submits a right answer of their own, one the reference answer verbatim
(no credit), one the stubs, one a partial answer (a mutant),
one an answer cell that hangs, one a notebook whose test cell was deleted, and one who replaces
the grader's check() inside the notebook's kernel.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader import classroom
from grader.engine import runner
from grader.course.catalog import ROOT

BIN = Path(sys.executable).parent
PARTIAL = ROOT / "solutions" / "mutants" / "a3_broadcast" / "max_of_dims.py"


def nbgrader(course: Path, *args: str) -> None:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def with_answer(nb, source: str):
    nb = nbformat.from_dict(nb)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "A3__answer":
            cell.source = source
    return nb


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    assert classroom.build_course(course, only=["A3"], cell_timeout_s=20) == ["set_A"]
    nbgrader(course, "generate_assignment", "set_A")
    source = nbformat.read(course / "source/set_A/set_A.ipynb", as_version=4)
    release = nbformat.read(course / "release/set_A/set_A.ipynb", as_version=4)
    mark = classroom.ANSWER_MARK.format(id="A3") + "\n"
    answer = [c.source for c in source.cells if c.metadata["nbgrader"].get("grade_id") == "A3__answer"][0]
    own = with_answer(source, answer + "\nANSWERED_BY = 'sol'\n")  # right, and not the reference verbatim
    deleted = nbformat.from_dict(own)
    deleted.cells = [c for c in deleted.cells if c.metadata["nbgrader"].get("grade_id") != "A3__aligns_from_the_right"]
    class_ = {
        "sol": own,
        "copy": source,  # the reference answer itself: no credit
        "stub": release,
        "partial": with_answer(release, mark + PARTIAL.read_text()),
        "hangs": with_answer(release, mark + "while True:\n    pass\n"),
        "deleted": deleted,
        # replaces the grader's check() inside the shared kernel: must not help
        "forger": with_answer(release, mark + "import grader.classroom\n"
                              "grader.classroom.check = lambda *a: print('passed')\n"
                              "def broadcast_shape(a, b):\n    return (1,)\n"),
    }
    for student, nb in class_.items():
        folder = course / "submitted" / student / "set_A"
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / "set_A.ipynb")
    nbgrader(course, "autograde", "set_A")
    nbgrader(course, "generate_feedback", "set_A")
    nbgrader(course, "export")
    classroom.write_mastery(course, course / "mastery.csv", course / "mastery.json")
    return course


def test_release_has_no_solutions_and_no_hidden_tests(course):
    text = (course / "release/set_A/set_A.ipynb").read_text()
    solution_line = "for i, (x, y) in enumerate(zip(a, b))"
    assert solution_line in (course / "source/set_A/set_A.ipynb").read_text()
    assert solution_line not in text and "BEGIN HIDDEN TESTS" not in text and "check(" not in text
    assert "def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...])" in text  # the stub's signature stays


def partial_score_by_make_grade(tmp_path) -> int:
    target = tmp_path / "partial"
    target.mkdir(exist_ok=True)
    (target / "a3_broadcast.py").write_text(PARTIAL.read_text())
    res = runner.grade(target, only=["A3"])["A3"]
    return sum(k.passed for k in res.key_points)


def test_exported_grades(course, tmp_path):
    with (course / "grades.csv").open() as f:
        scores = {row["student_id"]: float(row["raw_score"]) for row in csv.DictReader(f)}
    partial = partial_score_by_make_grade(tmp_path)
    assert 0 < partial < 3
    assert scores == {"sol": 3.0, "copy": 0.0, "stub": 0.0, "partial": partial, "hangs": 0.0, "deleted": 3.0,
                      "forger": 0.0}


def test_feedback_hides_test_code(course):
    for student in ("stub", "partial"):
        page = (course / "feedback" / student / "set_A" / "set_A.html").read_text()
        assert "BEGIN HIDDEN" not in page and "from grader" not in page and "np.broadcast_shapes(a, b)" not in page
        assert "raises_on_incompatible" in page


def test_mastery_from_the_gradebook(course):
    rows = {r["student"]: r for r in csv.DictReader((course / "mastery.csv").open())}
    assert set(rows) == {"sol", "copy", "stub", "partial", "hangs", "deleted", "forger"}
    assert all(r["level"] == "none" for r in rows.values())  # A3 alone is no level
    assert {s: int(r["A"]) for s, r in rows.items()} == {"sol": 1, "copy": 0, "stub": 0, "partial": 0, "hangs": 0,
                                                         "deleted": 1, "forger": 0}
