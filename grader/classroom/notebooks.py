"""Classroom mode: an nbgrader course built from the same catalog, stubs, solutions and checks.

One assignment per question set (``set_R``, ``set_A``, ... ``set_X``): the course's self-test,
its pass line and its mastery levels are all counted per set, and one notebook per set keeps
each autograde short. Nothing is copied: a notebook's answer cell is generated from the stub
(signatures, docstrings) with the solution's bodies inside nbgrader's ``### BEGIN SOLUTION``
regions; each key point is one autograder test cell, worth one point, whose hidden region calls
:func:`check`, which grades the student's answer cell with the same runner as ``make grade``
(in its own processes, with the same limits).

Instructor flow (README, "Classroom")::

    grader classroom build course/          # nbgrader_config.py + source/set_*/set_*.ipynb
    cd course
    nbgrader generate_assignment set_A      # release/: no solutions, no hidden tests
    # students' notebooks go to submitted/<student>/set_A/set_A.ipynb
    nbgrader autograde set_A
    nbgrader generate_feedback set_A
    nbgrader export                         # grades.csv
    grader classroom mastery .              # mastery.csv / mastery.json: level per student
"""

from __future__ import annotations

import ast
import hashlib
import json
import tempfile
import textwrap
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from grader.course import catalog
from grader.course import levels
from grader.course.catalog import ROOT

SETS = catalog.SETS
ANSWER_MARK = "# {id} answer"


def assignment_name(set_id: str) -> str:
    return f"set_{set_id}"


def grade_id(ex_id: str, kp_id: str) -> str:
    return f"{ex_id}__{kp_id}"


# ---------------------------------------------------------------------------- building
def _nbgrader(cell, **meta):
    cell.metadata["nbgrader"] = {"schema_version": 3, "grade": False, "solution": False, "locked": False,
                                 "task": False, **meta}
    return cell


def _lines(src: str, start: int, end: int) -> list[str]:
    return src.splitlines()[start - 1:end]


def answer_source(ex: catalog.Exercise) -> str:
    """The stub with each function body replaced by the solution's, in solution regions.

    Solution code the stub lacks (helpers, imports) goes in a region of its own whose release
    version is harmless at module level.
    """
    stub_src = (ROOT / "exercises" / f"{ex.module}.py").read_text()
    sol_src = (ROOT / "solutions" / f"{ex.module}.py").read_text()
    stub, sol = ast.parse(stub_src), ast.parse(sol_src)
    sol_funcs = {n.name: n for n in sol.body if isinstance(n, ast.FunctionDef)}
    stub_names = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stub_imports = {ast.unparse(n) for n in stub.body if isinstance(n, (ast.Import, ast.ImportFrom))}

    out = [ANSWER_MARK.format(id=ex.id) + " — the grader reads your code from this cell; keep this line."]
    extras = []
    for node in sol.body:
        if isinstance(node, ast.Expr) and isinstance(getattr(node, "value", None), ast.Constant) and node is sol.body[0]:
            continue  # module docstring
        if isinstance(node, (ast.Import, ast.ImportFrom)) and ast.unparse(node) in stub_imports:
            continue
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in stub_names:
            continue
        start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
        extras += _lines(sol_src, start, node.end_lineno)
    body_started = False
    for node in stub.body:
        if node is stub.body[0] and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the module docstring becomes the markdown cell
        if not isinstance(node, ast.FunctionDef):
            out += _lines(stub_src, node.lineno, node.end_lineno)
            continue
        if not body_started and extras:
            out += ["", "try:  # your helper functions and imports, if any",
                    "    ### BEGIN SOLUTION", *textwrap.indent("\n".join(extras), "    ").splitlines(),
                    "    ### END SOLUTION", "except NotImplementedError:", "    pass"]
        body_started = True
        doc = node.body[0] if (isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)) else None
        head_end = doc.end_lineno if doc else node.body[0].lineno - 1
        out += [""] + _lines(stub_src, node.lineno, head_end)
        fn = sol_funcs.get(node.name)
        if fn is None:
            raise ValueError(f"solutions/{ex.module}.py lacks {node.name}")
        first = fn.body[1] if (len(fn.body) > 1 and isinstance(fn.body[0], ast.Expr)
                               and isinstance(fn.body[0].value, ast.Constant)) else fn.body[0]
        out += ["    ### BEGIN SOLUTION", *_lines(sol_src, first.lineno, fn.end_lineno), "    ### END SOLUTION"]
    return "\n".join(out) + "\n"


CHECK_CALL = """{comment}
### BEGIN HIDDEN TESTS
from grader.classroom import check
check({ex_id!r}, {kp_id!r}, In)
### END HIDDEN TESTS"""


def notebook(set_id: str, exercises: list[catalog.Exercise]) -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells.append(_nbgrader(new_markdown_cell(
        f"# {catalog.SET_TITLES[set_id]} (set {set_id})\n\nWrite each answer in its answer cell, then run the "
        "whole notebook. Each key point is one point; the hidden checks draw their own inputs."),
        locked=True, grade_id=f"{set_id}__intro"))
    for ex in exercises:
        doc = ast.get_docstring(ast.parse((ROOT / "exercises" / f"{ex.module}.py").read_text())) or ""
        nb.cells.append(_nbgrader(new_markdown_cell(f"## {ex.id} — {ex.title}\n\n{doc}"),
                                  locked=True, grade_id=f"{ex.id}__question"))
        nb.cells.append(_nbgrader(new_code_cell(answer_source(ex)), solution=True, grade_id=f"{ex.id}__answer"))
        for kp in ex.key_points:
            comment = f"# {ex.id} · {kp.id}: {kp.claim}" + (" (follow-up)" if kp.followup else "")
            nb.cells.append(_nbgrader(new_code_cell(CHECK_CALL.format(comment=comment, ex_id=ex.id, kp_id=kp.id)),
                                      grade=True, locked=True, points=1, grade_id=grade_id(ex.id, kp.id)))
        if ex.set == "C":
            rubric = "\n".join(f"- {kp.claim}: {kp.lesson}" + (" *(follow-up)*" if kp.followup else "")
                               for kp in ex.key_points)  # the solution region: removed from the release
            nb.cells.append(_nbgrader(new_markdown_cell(
                f"**{ex.id}, in words.** Answer the interview question as you would aloud.\n\n"
                f"### BEGIN SOLUTION\nRubric (one point each):\n{rubric}\n### END SOLUTION"),
                solution=True, grade=True, points=len(ex.key_points), grade_id=f"{ex.id}__written"))
    return nb


NBGRADER_CONFIG = '''\
# Generated by `grader classroom build`. nbgrader configuration for this course.
import os
from grader.classroom import GradeAnswerCells, RequireGradeOutputs
from nbgrader.preprocessors import (IgnorePattern, LimitOutput, SaveAutoGrades,
                                    AssignLatePenalties, CheckCellMetadata, GetGrades, ClearHiddenTests)
from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor

c = get_config()  # noqa: F821
c.CourseDirectory.root = {root!r}
c.OverwriteCells.add_missing_cells = True   # a deleted test cell comes back and is graded
c.Autograde.create_student = True
# No Execute: nbgrader's kernel would run the student's notebook as this user, outside the
# sandbox. Verdicts come from GradeAnswerCells, which grades each answer cell with the sandboxed
# runner and writes every test cell's output; a test cell it does not know gets an error from
# RequireGradeOutputs, never free points. Should Execute be added back, these still hold:
c.Execute.timeout = {timeout}          # seconds per cell; a hung cell is an error, never a pass
c.Execute.interrupt_on_timeout = True
os.environ["GRADER_AUTOGRADE"] = "1"  # the kernel's check() calls then skip their own grading
c.Autograde.autograde_preprocessors = [GradeAnswerCells, RequireGradeOutputs, IgnorePattern,
                                       ClearMetadataPreprocessor, LimitOutput, SaveAutoGrades,
                                       AssignLatePenalties, CheckCellMetadata]
# Feedback shows verdicts, not the hidden test code.
c.GenerateFeedback.preprocessors = [GetGrades, ClearHiddenTests, CSSHTMLHeaderPreprocessor]
'''


def build_course(course_dir: str | Path, only: list[str] | None = None,
                 cell_timeout_s: int | None = None) -> list[str]:
    """Write nbgrader_config.py and source/set_*/set_*.ipynb; returns the assignment names.

    ``cell_timeout_s`` defaults to the longest exercise's limit plus a margin, since the first
    test cell of an exercise grades all of it.
    """
    course = Path(course_dir).resolve()
    wanted = {catalog.get(i).id for i in only} if only else None
    names = []
    for set_id in SETS:
        exs = [ex for ex in catalog.CATALOG if ex.set == set_id and ex.available
               and (wanted is None or ex.id in wanted)]
        if not exs:
            continue
        name = assignment_name(set_id)
        folder = course / "source" / name
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook(set_id, exs), folder / f"{name}.ipynb")
        names.append(name)
    timeout = cell_timeout_s or int(max(ex.timeout_s for ex in catalog.CATALOG if ex.available) + 30)
    (course / "nbgrader_config.py").write_text(NBGRADER_CONFIG.format(
        root=str(course), timeout=timeout))
    return names


# ---------------------------------------------------------------------------- autograding
_graded: dict[tuple[str, str], object] = {}


def answer_from_history(ex_id: str, history: list[str]) -> str | None:
    """The last executed cell that starts with the exercise's answer mark."""
    mark = ANSWER_MARK.format(id=ex_id)
    for src in reversed(history or []):
        if src.lstrip().startswith(mark):
            return src
    return None


def check(ex_id: str, kp_id: str, history: list[str]) -> None:
    """Autograder test cell: grade the answer cell once per exercise, then judge one key point.

    The verdict is printed, never raised: a pass goes to stdout (full points), a failure to
    stderr, which nbgrader scores 0 without showing a traceback of this code. The feedback
    leaves out the hidden checks' expected values.
    """
    import os
    import sys
    import warnings

    if os.environ.get("GRADER_AUTOGRADE"):  # nbgrader autograde: GradeAnswerCells decides, outside
        print(f"{ex_id} · {kp_id}: graded outside the notebook")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a stray warning on stderr would cost a passed point
        verdict = _verdict(ex_id, kp_id, history)
    if verdict is None:
        print(f"{ex_id} · {kp_id}: passed")
    else:
        print(verdict, file=sys.stderr)


def _verdict(ex_id: str, kp_id: str, history: list[str]) -> str | None:
    source = answer_from_history(ex_id, history)
    if source is None:
        return f"no answer cell for {ex_id} was run (it must start with '{ANSWER_MARK.format(id=ex_id)}')"
    return verdict_for_source(ex_id, kp_id, source)


def verdict_for_source(ex_id: str, kp_id: str, source: str) -> str | None:
    """None when the key point passes on this answer source, else the feedback to show."""
    from grader.engine import runner

    ex = catalog.get(ex_id)
    key = (ex_id, hashlib.sha256(source.encode()).hexdigest())
    if key not in _graded:
        runner.warm_up(heavy=True)  # a notebook grades many answers: preload once, fork each
        with tempfile.TemporaryDirectory(prefix="nb-answer-") as tmp:
            path = Path(tmp) / f"{ex.module}.py"
            path.write_text(source)
            try:
                _graded[key] = runner.grade_exercise(ex, path)
            except KeyboardInterrupt:  # the cell timed out: the other key points fail at once
                _graded[key] = runner.uniform_result(ex, "timeout", "grading was interrupted by the notebook's cell timeout")
                raise
    result = _graded[key]
    kp = next((k for k in result.key_points if k.key_point == kp_id), None)
    if kp is None or not (kp.passed or kp.status == "not_verifiable"):
        text = class_feedback(ex, kp) if kp else f"{kp_id} was not graded"
        return f"{ex_id} · {kp_id} failed\n{text}"
    return None


def class_feedback(ex: catalog.Exercise, kp) -> str:
    """A failed key point as a student sees it: never the hidden checks' expected values, and for a
    recall key point not its hint or the course's line either (they would state the fact)."""
    from grader.engine import attempts
    from grader.reports.terminal import feedback

    return feedback(ex, attempts.shown(ex, kp, count=None), reveal_expected=False)


def _nbgrader_preprocessor_base():
    from nbgrader.preprocessors import NbGraderPreprocessor

    return NbGraderPreprocessor


class GradeAnswerCells(_nbgrader_preprocessor_base()):
    """Grade each answer cell from the notebook file, outside any kernel of the student's.

    nbgrader's Execute would run the student's code, as the grading user and unsandboxed, next to
    the test cells, whose output it could then forge (e.g. by replacing ``check`` from the
    answer cell); the course's config leaves Execute out. This preprocessor runs in nbgrader's
    own process: it reads each answer cell's source, grades it with the same runner as ``make
    grade`` (sandboxed processes, the same refusals), and writes every test cell's output with
    the verdict: stdout for a pass, stderr (no credit) for a failure.
    """

    def preprocess(self, nb, resources):
        answers = {}
        for cell in nb.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            if gid.endswith("__answer"):
                answers[gid.removesuffix("__answer")] = cell.source
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
                continue
            ex_id, _, kp_id = meta.get("grade_id", "").partition("__")
            if ex_id not in catalog.BY_ID:
                continue
            if ex_id in answers:
                verdict = verdict_for_source(ex_id, kp_id, answers[ex_id])
            else:
                verdict = f"no answer cell for {ex_id} in the notebook"
            out = nbformat.v4.new_output("stream", name="stdout" if verdict is None else "stderr",
                                         text=f"{ex_id} · {kp_id}: passed\n" if verdict is None else verdict + "\n")
            cell.outputs = [out]
        return nb, resources


class RequireGradeOutputs(_nbgrader_preprocessor_base()):
    """An autograder test cell with no output was not graded; record that as an error.

    nbgrader gives full points to a test cell whose outputs hold no error, which is also true of
    a cell that never executed (jupyter/nbgrader#427). Our test cells always print a verdict.
    """

    def preprocess_cell(self, cell, resources, index):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            printed = any(o.get("output_type") in ("stream", "error") for o in cell.get("outputs", []))
            if not printed:
                cell.outputs.append(nbformat.v4.new_output(
                    "error", ename="NotExecuted", evalue="this test cell did not run (kernel died or timed out)",
                    traceback=["NotExecuted: this test cell did not run (kernel died or timed out)"]))
        return cell, resources


# ---------------------------------------------------------------------------- mastery
def gradebook_outcomes(course_dir: str | Path) -> dict[str, tuple[dict, dict]]:
    """student -> (key-point outcomes by exercise, written-answer scores) from the gradebook."""
    from nbgrader.api import Gradebook, MissingEntry

    course = Path(course_dir).resolve()
    out = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        assignments = [a.name for a in gb.assignments]
        for student in gb.students:
            outcomes: dict[str, dict[str, bool]] = {}
            written = {}
            for name in assignments:
                try:
                    sub = gb.find_submission(name, student.id)
                except MissingEntry:
                    continue
                for nb in sub.notebooks:
                    for grade in nb.grades:
                        ex_id, _, kp_id = grade.name.partition("__")
                        if kp_id == "written":
                            written[ex_id] = grade.score
                        elif kp_id and ex_id in catalog.BY_ID:
                            score = grade.score or 0
                            outcomes.setdefault(ex_id, {})[kp_id] = score >= grade.max_score > 0
            out[student.id] = (outcomes, written)
    return out


def mastery(course_dir: str | Path) -> list[dict]:
    """Each student's level and pass line from the gradebook, by the same rules as ``make grade``."""
    rows = []
    for student, (outcomes, written) in gradebook_outcomes(course_dir).items():
        s = levels.summarize(outcomes)
        rows.append({"student": student, **s.row(), "written_C": json.dumps(written)})
    return rows


def write_mastery(course_dir: str | Path, csv_path: Path, json_path: Path) -> list[dict]:
    from grader.classroom.batch import write_csv

    from grader.isolation import files

    rows = mastery(course_dir)
    files.replace_file(json_path, json.dumps(rows, indent=1).encode())
    write_csv(rows, csv_path)
    return rows
