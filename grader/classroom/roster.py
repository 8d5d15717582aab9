"""Who is in the class, what each student submitted, and their mastery, from the course folder.

The class is every student of the gradebook and every folder of ``submitted/`` (a student whose
folder is empty never reaches the gradebook). For each student and assignment, :func:`status`:

graded          ``submitted/<student>/<set>/<set>.ipynb`` was autograded
not submitted   no folder, an empty one, a notebook of another name (named in the note), or the
                wrong notebook under the right name (another set's: autograde records it, see
                :func:`record_wrong_notebook`)
not graded      submitted, but autograde has not graded it (not run yet, or it failed)

``mastery.csv`` / ``mastery.json`` (:func:`mastery`): one row per student, by the same rules as
``make grade`` (:mod:`grader.course.levels`) applied to the gradebook's key-point grades; docs/classroom.md
explains every column.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from grader.course import catalog, levels
from grader.engine.results import ExerciseResult
from grader.i18n import N_, Message

PRIVATE = ".grader"  # in the course folder: the manifest, each student's answers and results


def assignment_name(set_id: str) -> str:
    return f"set_{set_id}"


def _safe(name: str) -> str:
    if not name or name in (".", "..") or "/" in name or os.sep in name:
        raise ValueError(f"not a usable student or assignment name: {name!r}")
    return name


def answers_folder(course: Path, assignment: str, student: str) -> Path:
    return Path(course) / PRIVATE / "answers" / _safe(assignment) / _safe(student)


def results_file(course: Path, assignment: str, student: str) -> Path:
    return Path(course) / PRIVATE / "results" / _safe(assignment) / f"{_safe(student)}.json"


def write_text(path: Path, text: str) -> None:
    """Written whole through a rename (:func:`grader.isolation.files.replace_file`): a link at
    ``path`` is replaced, not followed."""
    from grader.isolation import files

    files.replace_file(path, text.encode())


def save_results(course: Path, assignment: str, student: str, results: dict[str, ExerciseResult]) -> None:
    path = results_file(course, assignment, student)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps({k: r.to_dict() for k, r in results.items()}))


def submitted_notebook(course: Path, assignment: str, student: str) -> Path:
    return Path(course) / "submitted" / _safe(student) / _safe(assignment) / f"{assignment}.ipynb"


def _wrong_file(course: Path, assignment: str, student: str) -> Path:
    return Path(course) / PRIVATE / "wrong" / _safe(assignment) / f"{_safe(student)}.json"


def _digest(path: Path) -> str:
    import hashlib

    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def record_wrong_notebook(course: Path, assignment: str, student: str, found: str | None) -> None:
    """What autograde found in ``submitted/<student>/<set>/<set>.ipynb`` when it is not that set's
    notebook (``found``: "set_B's notebook", ...), tied to that file's bytes: a resubmission is
    judged afresh. ``None``: the right notebook, the record goes."""
    path = _wrong_file(course, assignment, student)
    if found is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    sha = _digest(submitted_notebook(course, assignment, student))
    write_text(path, json.dumps({"found": found, "sha256": sha}))


def wrong_notebook(course: Path, assignment: str, student: str) -> str | None:
    """What autograde found instead of the set's notebook, if the file submitted is still that one."""
    try:
        record = json.loads(_wrong_file(course, assignment, student).read_text())
        if record["sha256"] and record["sha256"] == _digest(submitted_notebook(course, assignment, student)):
            return str(record["found"])
    except (OSError, ValueError, TypeError, KeyError):
        pass
    return None


def load_results(course: Path, assignment: str, student: str) -> dict[str, ExerciseResult]:
    try:
        data = json.loads(results_file(course, assignment, student).read_text())
        return {k: ExerciseResult.from_dict(v) for k, v in data.items()}
    except (OSError, ValueError, TypeError, KeyError):
        return {}


def students(course: Path, gradebook) -> list[str]:
    """The class: the gradebook's students and every folder of ``submitted/``."""
    submitted = Path(course) / "submitted"
    folders = (
        {p.name for p in submitted.iterdir() if p.is_dir() and not p.name.startswith(".")}
        if submitted.is_dir()
        else set()
    )
    return sorted({s.id for s in gradebook.students} | folders)


def status(course: Path, gradebook, assignment: str, student: str) -> tuple[str, str]:
    """(graded | not submitted | not graded, a short why) for one student's assignment."""
    from nbgrader.api import MissingEntry

    folder = Path(course) / "submitted" / student / assignment
    notebook = folder / f"{assignment}.ipynb"
    if not folder.is_dir():
        return "not submitted", ""
    if not notebook.is_file():
        others = sorted(p.name for p in folder.glob("*.ipynb"))
        return "not submitted", f"found {', '.join(others)}" if others else "empty folder"
    found = wrong_notebook(course, assignment, student)
    if found:
        return "not submitted", f"wrong notebook: {found}"
    try:
        gradebook.find_submission(assignment, student)
    except MissingEntry:
        return "not graded", "not autograded yet"
    if not (Path(course) / "autograded" / student / assignment / f"{assignment}.ipynb").is_file():
        return "not graded", "autograde failed, see its log"
    return "graded", ""


def shown(state: str, note: str) -> str:
    return f"{state} ({note})" if note else state


# ---------------------------------------------------------------------------- mastery
def _c_at_half(summary: levels.Summary) -> tuple[int, int]:
    ok = sum(t > 0 and p >= levels.needed("C", t) for p, t in summary.c_points.values())
    return ok, len(summary.c_points)


def written_state(grade) -> str:
    """A written answer's grade: ``graded`` (by hand), ``to grade`` or ``no response``. From the
    gradebook's own needs-manual-grade state: nbgrader's ``score`` is 0.0, not None, for an answer
    nobody graded yet, so a score alone would show it as a graded zero."""
    if grade.manual_score is not None:
        return "graded"
    # autograde clears the flag only for an answer left as released (auto_score 0)
    return "to grade" if grade.needs_manual_grade else "no response"


def student_outcomes(course: Path, gradebook, student: str, assignments: set[str]):
    """(key-point outcomes by exercise, written answers, each set's (state, note)) of one student:
    the gradebook's grades of the sets graded, a not-verifiable key point as None (left out of the
    counts, as in ``make grade``) unless a grader scored it by hand."""
    from nbgrader.api import MissingEntry

    outcomes: dict[str, dict[str, bool | None]] = {}
    written: dict[str, str] = {}
    states: dict[str, tuple[str, str]] = {}
    for set_id in catalog.SETS:
        name = assignment_name(set_id)
        if name not in assignments:
            states[set_id] = ("not assigned", f"no {name} in the gradebook yet")
            continue
        states[set_id] = status(course, gradebook, name, student)
        if states[set_id][0] != "graded":
            continue
        recorded = load_results(course, name, student)
        try:
            sub = gradebook.find_submission(name, student)
        except MissingEntry:
            continue
        for nb in sub.notebooks:
            for grade in nb.grades:
                ex_id, _, kp_id = grade.name.partition("__")
                if ex_id not in catalog.BY_ID:
                    continue
                if kp_id == "written":
                    state = written_state(grade)
                    written[ex_id] = f"{grade.score:g}/{grade.max_score:g}" if state == "graded" else state
                    continue
                kp = next(
                    (k for k in recorded.get(ex_id, ExerciseResult(ex_id, "")).key_points if k.key_point == kp_id), None
                )
                if grade.manual_score is None and kp is not None and kp.status == "not_verifiable":
                    outcomes.setdefault(ex_id, {})[kp_id] = None
                else:
                    outcomes.setdefault(ex_id, {})[kp_id] = (grade.score or 0) >= grade.max_score > 0
    return outcomes, written, states


NOT_ASSIGNED = "not assigned"  # an exercise or set the gradebook's assignments do not hold


def assigned_exercises(gradebook) -> set[str]:
    """The exercises whose cells the gradebook's assignments hold (a course built with ``--only``
    holds some of each set's)."""
    return {
        cell.name.partition("__")[0]
        for assignment in gradebook.assignments
        for nb in assignment.notebooks
        for cell in nb.grade_cells
        if cell.name.partition("__")[0] in catalog.BY_ID
    }


def _set_count(set_id: str, s: levels.Summary, outcomes: dict, assigned: set[str] | None) -> tuple[int, int]:
    """A set column's count over the set's exercises the class was given (``assigned``; None: all)."""
    exs = [ex for ex in catalog.CATALOG if ex.set == set_id]
    if assigned is None or all(ex.id in assigned for ex in exs) or set_id == "R":
        return _c_at_half(s) if set_id == "C" else s.sets[set_id]
    given = [ex for ex in exs if ex.id in assigned]
    if set_id == "C":
        return sum(
            s.c_points[ex.id][1] > 0 and s.c_points[ex.id][0] >= levels.needed("C", s.c_points[ex.id][1])
            for ex in given
        ), len(given)
    return sum(levels.question_passed(ex, outcomes) for ex in given), len(given)


def student_mastery(
    course: Path, gradebook, student: str, assignments: set[str], assigned: set[str] | None = None
) -> dict:
    """One student's row: sets, level, pass line, what the next level needs, written answers.
    ``assigned``: the exercises in the gradebook (:func:`assigned_exercises`); the others are
    "not assigned", never failed, and left out of their set's count."""
    outcomes, written, states = student_outcomes(course, gradebook, student, assignments)
    s = levels.summarize(outcomes)
    needs = assigned_needs(s, states)
    sets = {}
    for set_id in catalog.SETS:
        state, note = states[set_id]
        if state != "graded":
            sets[set_id] = shown(state, note if state != "not assigned" else "")
        else:
            sets[set_id] = "{}/{}".format(*_set_count(set_id, s, outcomes, assigned))
    c_ids = [ex.id for ex in catalog.CATALOG if ex.set == "C"]
    c_graded = states["C"][0] == "graded"

    def c_column(cid: str, value: str) -> str:
        if assigned is not None and cid not in assigned:
            return NOT_ASSIGNED
        return value if c_graded else ""

    row = {
        "student": student,
        "level": s.level,
        "pass_line": levels.PASS_LINE_VALUES[s.pass_line],
        "next_level_needs": "; ".join(m.text() for m in needs),  # a text: in the language asked
        **sets,
        **{cid: c_column(cid, "{}/{}".format(*s.c_points[cid])) for cid in c_ids},
        **{f"written_{cid}": c_column(cid, written.get(cid, "")) for cid in c_ids},
    }
    assert list(row) == mastery_columns(), list(row)  # the columns docs/classroom.md lists
    detail = {
        "status": {k: {"state": v[0], "note": v[1]} for k, v in states.items()},
        "summary": {**s.to_dict(), "next_level_needs": [str(m) for m in needs]},
        "written": written,
    }
    return {"row": row, "detail": detail}


OUTSIDE_NEEDS = N_("set(s) {sets}: not assigned (no such assignment in the gradebook)")


def assigned_needs(summary: levels.Summary, states: dict[str, tuple[str, str]]) -> list[Message]:
    """What the next level needs, of the sets in the gradebook only; the sets it needs beyond them
    are named as such (no "R: 0/12" for a class never given set R)."""
    assigned = [s for s in catalog.SETS if states[s][0] != "not assigned"]
    needs = [m for m in summary.next_level_messages if levels.need_set(m) in assigned]
    beyond = {levels.need_set(m) for m in summary.next_level_messages} - set(assigned)
    if beyond:
        needs.append(Message.of(OUTSIDE_NEEDS, sets=", ".join(s for s in catalog.SETS if s in beyond)))
    return needs


def mastery_columns() -> list[str]:
    """mastery.csv's columns, in the order :func:`student_mastery` writes them."""
    c_ids = [ex.id for ex in catalog.CATALOG if ex.set == "C"]
    return [
        "student",
        "level",
        "pass_line",
        "next_level_needs",
        *catalog.SETS,
        *c_ids,
        *(f"written_{c}" for c in c_ids),
    ]


def mastery(course_dir: str | Path) -> list[dict]:
    """Each student's row of mastery.csv, from the gradebook, by the same rules as ``make grade``."""
    return [m["row"] for m in _all(course_dir)]


def gradebook_outcomes(course_dir: str | Path) -> dict[str, tuple[dict, dict]]:
    """student -> (key-point outcomes by exercise, written answers), every student of the class."""
    from nbgrader.api import Gradebook

    course = Path(course_dir).resolve()
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        assignments = {a.name for a in gb.assignments}
        return {student: student_outcomes(course, gb, student, assignments)[:2] for student in students(course, gb)}


def _all(course_dir: str | Path) -> list[dict]:
    from nbgrader.api import Gradebook

    course = Path(course_dir).resolve()
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        assignments = {a.name for a in gb.assignments}
        assigned = assigned_exercises(gb)
        return [student_mastery(course, gb, student, assignments, assigned) for student in students(course, gb)]


def write_mastery(course_dir: str | Path, csv_path: Path, json_path: Path) -> list[dict]:
    import csv
    import io

    everyone = _all(course_dir)
    rows = [m["row"] for m in everyone]
    write_text(json_path, json.dumps([{**m["row"], **m["detail"]} for m in everyone], indent=1))
    out = io.StringIO(newline="")
    if rows:
        w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    write_text(csv_path, out.getvalue())
    return rows
