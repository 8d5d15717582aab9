"""What runs inside nbgrader's own commands: the preprocessors and the export plugin the course's
``nbgrader_config.py`` (written by ``grader classroom build``) puts in nbgrader's pipelines.

generate_assignment
    :class:`ReleaseStubs` instead of ``ClearSolutions``: a release answer cell is the stub, with its
    own ``raise NotImplementedError("A3: ...")`` and no wrapper.
autograde (no ``Execute``: no kernel runs the student's notebook)
    :class:`CheckNotebook`, first: another set's notebook (or none of the course's) under this
    set's name is recorded as not submitted and replaced by the release notebook, instead of
    failing in nbgrader's OverwriteCells. :class:`GradeAnswerCells` checks the grader's files
    against the course's manifest, reads each answer cell from the notebook file and grades it with the sandboxed runner
    of ``make grade``,
    re-grading only answers whose fingerprint changed since the last autograde, and writes each
    test cell's verdict; :class:`RequireGradeOutputs` makes a test cell it did not write an error;
    :class:`AddRubrics` shows each C written answer's rubric under it, for formgrader.
generate_feedback
    :class:`HideRubrics` takes the rubrics out again.
export
    :class:`ExportGrades`: nbgrader's columns for every student of the class (also those who
    submitted nothing, or a misnamed notebook), with the submission's status and the key points
    apart from the written points.
validate (the students' Validate button, in their own kernel)
    :class:`SetTimeouts`: each cell waits as long as the catalog allows its set's exercises.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import nbformat
from nbgrader.plugins import ExportPlugin
from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions, GetGrades, NbGraderPreprocessor
from traitlets import Integer, List

from grader.classroom import manifest, notebooks, roster
from grader.course import catalog
from grader.engine import attempts
from grader.i18n import N_, _


def replace(converter, old, new: list) -> list:
    """``converter``'s default preprocessors with ``old`` replaced by ``new`` (kept in nbgrader's order)."""
    out = []
    for pp in converter.class_traits()["preprocessors"].default():
        out += new if pp is old else [pp]
    return out


def autograde_steps(autograde, save_grades) -> list:
    """nbgrader's autograde preprocessors without Execute: ours first, the rubrics before the grades are saved."""
    from nbconvert.preprocessors import ExecutePreprocessor

    steps = [
        pp
        for pp in autograde.class_traits()["autograde_preprocessors"].default()
        if not (isinstance(pp, type) and issubclass(pp, ExecutePreprocessor))
    ]
    at = steps.index(save_grades)
    return [GradeAnswerCells, RequireGradeOutputs, *steps[:at], AddRubrics, *steps[at:]]


def sanitize_steps(autograde) -> list:
    """nbgrader's sanitize preprocessors (run before autograde's), :class:`CheckNotebook` first."""
    return [CheckNotebook, *autograde.class_traits()["sanitize_preprocessors"].default()]


def require_manifest(course: str | Path) -> None:
    """Stop this process with the manifest's error if the grader's files changed since the build."""
    import sys

    try:
        manifest.verify(course)
    except manifest.Mismatch as exc:
        print(f"[grader] autograde stopped: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


# How nbgrader ends a run in which some notebooks failed (each already logged, left out, the others
# graded); its other NbGraderExceptions (the gradebook unreadable, a schema too old) stop the class.
PER_NOTEBOOK_FAILURES = "errors on the above failures."


def keep_going(converter) -> None:
    """One notebook nbgrader fails on must not fail the class: nbgrader grades the others and then
    exits 1, which stops a scripted pipeline. The failed ones are ``not graded (autograde failed,
    see its log)`` in grades.csv and mastery.csv (:func:`grader.classroom.roster.status`) and are
    tried again at the next autograde; the run itself exits 0."""
    from nbgrader.converters.base import NbGraderException

    convert = converter.convert_notebooks
    if getattr(convert, "keeps_going", False):
        return

    def convert_notebooks(self) -> None:
        try:
            convert(self)
        except NbGraderException as exc:
            if not str(exc).endswith(PER_NOTEBOOK_FAILURES):
                raise
            self.log.warning(
                "the notebooks above that failed are 'not graded (autograde failed)' in grades.csv; "
                "the rest of the class is graded"
            )

    convert_notebooks.keeps_going = True
    converter.convert_notebooks = convert_notebooks


def course_root(configurable) -> Path:
    root = configurable.config.get("CourseDirectory", {}).get("root")
    return Path(root or os.getcwd()).resolve()


def _meta(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def _is_test_cell(cell) -> bool:
    meta = _meta(cell)
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


# ---------------------------------------------------------------------------- generate_assignment
class ReleaseStubs(ClearSolutions):
    """ClearSolutions, except that an answer cell's solution regions become the stub's own code
    (:func:`grader.classroom.notebooks.release_source`); any other cell is cleared as nbgrader does."""

    def _replace_solution_region(self, cell, language: str) -> bool:
        ex_id, _, kind = _meta(cell).get("grade_id", "").partition("__")
        if cell.cell_type != "code" or kind != "answer" or ex_id not in catalog.BY_ID:
            return super()._replace_solution_region(cell, language)
        released = notebooks.release_source(cell.source, catalog.get(ex_id))
        changed = released != cell.source
        cell.source = released
        return changed


# ---------------------------------------------------------------------------- autograde
def set_of(cell) -> str | None:
    """The set a cell of the course belongs to (``A3__answer``: A; ``A__intro``: A), or None."""
    ex_id = _meta(cell).get("grade_id", "").partition("__")[0]
    return catalog.get(ex_id).set if ex_id in catalog.BY_ID else ex_id if ex_id in catalog.SETS else None


def sets_of(nb) -> set[str]:
    """The sets whose cells a notebook holds."""
    return {s for s in map(set_of, nb.cells) if s}


class CheckNotebook(NbGraderPreprocessor):
    """A submitted ``set_A.ipynb`` that holds none of set A's cells (set B's notebook saved under
    set A's name, or a notebook of no set) is not set A's work. nbgrader would fail on it (its
    OverwriteCells trips over cells it does not know), so this step runs first: it records the
    submission as **not submitted (wrong notebook: ...)** for grades.csv and mastery.csv
    (:func:`grader.classroom.roster.record_wrong_notebook`), and grades the release notebook in its
    place, under a first cell that tells the student what happened. Nothing of it is run. Cells
    of another set pasted into the right notebook become plain cells, for the same reason."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        assignment, student = info["assignment"], info["student"]
        set_id = assignment.removeprefix("set_")
        if set_id not in catalog.SETS:
            return nb, resources  # not one of the course's assignments
        course = course_root(self)
        found = sets_of(nb)
        if set_id in found:
            roster.record_wrong_notebook(course, assignment, student, None)
            for cell in nb.cells:  # another set's cells pasted in: plain cells (OverwriteCells fails on them)
                if set_of(cell) not in (None, set_id):
                    self.log.warning(
                        "%s %s: cell %s is not %s's: kept as a plain cell, not graded",
                        student,
                        assignment,
                        _meta(cell)["grade_id"],
                        assignment,
                    )
                    del cell.metadata["nbgrader"]
            nb.cells = self._ignore_copies(nb.cells, course, info)
            return nb, resources
        what = (" and ".join(f"set_{s}'s" for s in sorted(found)) + " notebook") if found else "a notebook of no set"
        roster.record_wrong_notebook(course, assignment, student, what)  # grades.csv's words: the instructor's
        self.log.warning(
            "%s %s: %s.ipynb is %s, not %s's: recorded as not submitted (wrong notebook); nothing in it is graded",
            student,
            assignment,
            info["notebook"],
            what,
            assignment,
        )
        release_dir = self.config.get("CourseDirectory", {}).get("release_directory") or "release"
        release = course / release_dir / assignment / f"{info['notebook']}.ipynb"
        if not release.is_file():
            raise RuntimeError(
                f"{student}'s {assignment}.ipynb is {what}, not {assignment}'s (recorded as not "
                f"submitted); {release} is missing: run nbgrader generate_assignment {assignment}"
            )
        stand_in = nbformat.read(release, as_version=4)
        stand_in.cells.insert(
            0,
            nbformat.v4.new_markdown_cell(
                str(_(WRONG_NOTEBOOK_NOTE, assignment=assignment, what=_wrong_notebook(found)))
            ),
        )
        return stand_in, resources

    def _ignore_copies(self, cells: list, course: Path, info: dict) -> list:
        """A second copy of a cell (Jupyter's Copy + Paste keeps its grade_id) or a cell the source
        notebook does not have becomes a plain cell under a note that says so: the first copy of
        each id is the one graded. nbgrader keeps the last copy instead and then fails on the
        cleared one (``KeyError: 'grade_id'`` in OverwriteCells), leaving the student ungraded."""
        source = course / "source" / info["assignment"] / f"{info['notebook']}.ipynb"
        known = {_meta(c).get("grade_id") for c in nbformat.read(source, as_version=4).cells} - {None}
        seen, out = set(), []
        for cell in cells:
            if "nbgrader" in cell.metadata:
                gid = _meta(cell).get("grade_id") or "?"  # nbgrader's KeyError: a cell with none
                note = COPY_NOTE if gid in seen else None if gid in known else UNKNOWN_NOTE
                seen.add(gid)
                if note is not None:
                    self.log.warning(
                        "%s %s: cell %s %s: kept as a plain cell, not graded (the student is told)",
                        info["student"],
                        info["assignment"],
                        gid,
                        "is a second copy" if note is COPY_NOTE else "is not in the source notebook",
                    )
                    del cell.metadata["nbgrader"]
                    out.append(nbformat.v4.new_markdown_cell(_(note).format(grade_id=gid)))
            out.append(cell)
        return out


def _wrong_notebook(found: set[str]) -> str:
    """What a wrong notebook is, in the student's language."""
    if not found:
        return _("a notebook of no set")
    return _("the notebook of {sets}", sets=", ".join(f"set_{s}" for s in sorted(found)))


WRONG_NOTEBOOK_NOTE = N_(
    "**Not graded: this is not {assignment}'s notebook.** The file you submitted as `{assignment}.ipynb` "
    "is {what}, so {assignment} counts as not submitted. Submit {assignment}'s own notebook (fetch it "
    "again) with your answers in it."
)
COPY_NOTE = N_(
    "**Not graded: the cell below is a second copy of `{grade_id}`** (copied and pasted?). The first "
    "copy, above, is the one graded; this one is ignored. Keep one copy of each cell."
)
UNKNOWN_NOTE = N_(
    "**Not graded: the cell below (`{grade_id}`) is not one of this notebook's cells.** It is ignored; "
    "only the notebook's own cells are graded."
)


class GradeAnswerCells(NbGraderPreprocessor):
    """Grade each answer cell from the notebook file, outside any process of the student's.

    Runs in nbgrader's own process, in place of Execute. Before grading it checks the grader's
    files against the course's manifest (:mod:`grader.classroom.manifest`). Each answer goes to
    ``.grader/answers/<assignment>/<student>/<module>.py`` in the course and is graded by
    :func:`grader.engine.runner.grade` with ``incremental=True``: the same fingerprints as
    ``make grade``, so a resubmission re-grades only the answers that changed. The learner's
    processes run in the sandbox with the course folder (every classmate's submission, the
    gradebook) hidden. An answer cell left as released is "not implemented" without being run.
    Every test cell's output is then the verdict: stdout for a pass, stderr (no point) otherwise.
    """

    jobs = Integer(0, help="exercises graded at once (0: one per CPU)").tag(config=True)

    def _refuse_execute(self) -> None:
        from nbconvert.preprocessors import ExecutePreprocessor

        for pp in getattr(self.parent, "_preprocessors", []):
            if isinstance(pp, ExecutePreprocessor) and getattr(pp, "enabled", True):
                raise RuntimeError(
                    "the autograde pipeline runs Execute: it would run each student's notebook "
                    "as this user, outside the sandbox; remove it from "
                    "c.Autograde.autograde_preprocessors (see `grader classroom build`)"
                )

    def preprocess(self, nb, resources):
        self._refuse_execute()
        course = course_root(self)
        manifest.verify(course)  # raises manifest.Mismatch: this notebook is not graded
        info = resources["nbgrader"]
        student, assignment = info["student"], info["assignment"]
        answers, ex_ids = {}, []
        for cell in nb.cells:
            ex_id, _, kind = _meta(cell).get("grade_id", "").partition("__")
            if ex_id not in catalog.BY_ID:
                continue
            if kind == "answer" and cell.cell_type == "code":
                answers[ex_id] = cell.source
            if (kind == "answer" or _is_test_cell(cell)) and ex_id not in ex_ids:
                ex_ids.append(ex_id)
        results = grade_answers(course, assignment, student, answers, ex_ids, jobs=self.jobs, log=self.log)
        tries = attempts.Attempts(roster.answers_folder(course, assignment, student))
        tries.record(results)  # distinct wrong answers per key point, as make grade counts them
        shown = attempts.gate(results, tries)  # make grade's withholding rule, over the whole notebook
        for cell in nb.cells:
            if not _is_test_cell(cell):
                continue
            ex_id, _, kp_id = _meta(cell).get("grade_id", "").partition("__")
            if ex_id not in results:
                continue  # not a key point of ours: RequireGradeOutputs makes it an error
            state, text = notebooks.verdict(catalog.get(ex_id), shown[ex_id], kp_id)
            cell.outputs = [
                nbformat.v4.new_output("stream", name="stdout" if state == "passed" else "stderr", text=text + "\n")
            ]
            cell.execution_count = None
        return nb, resources


def grade_answers(
    course: Path, assignment: str, student: str, answers: dict[str, str], ex_ids: list[str], *, jobs: int = 0, log=None
) -> dict:
    """Grade one student's answers of one notebook; records them in ``.grader/results``."""
    from grader.engine import runner
    from grader.isolation import files, sandbox

    sandbox.grading_others_work()

    folder = roster.answers_folder(course, assignment, student)
    folder.mkdir(parents=True, exist_ok=True)
    results, todo = {}, []
    for ex_id in ex_ids:
        ex = catalog.get(ex_id)
        path = folder / f"{ex.module}.py"
        source = answers.get(ex_id)
        if source is None:
            path.unlink(missing_ok=True)
            results[ex_id] = runner.uniform_result(ex, "missing", f"no answer cell for {ex_id} in the notebook")
        elif notebooks.is_release_stub(source, ex):
            path.unlink(missing_ok=True)
            results[ex_id] = notebooks.untouched_result(ex)
        else:
            if not path.is_file() or files.read_regular(path) != source.encode():
                files.replace_file(path, source.encode())
            todo.append(ex_id)
    if todo:
        runner.warm_up(heavy=True)  # a class is many notebooks: torch & co. preloaded once for all of them
        graded = runner.grade(folder, only=todo, incremental=True, jobs=jobs or None, hidden=[course])
        for ex_id in todo:
            ex = catalog.get(ex_id)
            results[ex_id] = notebooks.shown_as_cell(graded[ex_id], folder / f"{ex.module}.py", ex)
    if log is not None:
        log.info("%s %s: %s", student, assignment, _summary(results, todo))
    roster.save_results(course, assignment, student, results)
    return results


def _summary(results: dict, todo: list[str]) -> str:
    """One line per notebook: what was graded now, what came from the last autograde, what was left as released."""

    def score(ex_id):
        res = results[ex_id]
        return f"{ex_id} {sum(k.passed for k in res.key_points)}/{len(res.key_points)}"

    now = [f"{score(i)} ({results[i].duration_s:.1f} s)" for i in todo if not results[i].cached]
    same = [score(i) for i in todo if results[i].cached]
    rest = [i for i in results if i not in todo]
    # in the course's language (nbgrader_config.py: i18n.use), as the instructor reads the rest of the course
    parts = [
        _("graded now: {items}", items=", ".join(now)) if now else _("nothing graded now"),
        _("unchanged since the last autograde: {items}", items=", ".join(same)) if same else "",
        _("left as released (not run): {items}", items=", ".join(rest)) if rest else "",
    ]
    return str(_("; ")).join(p for p in parts if p)


class RequireGradeOutputs(NbGraderPreprocessor):
    """A test cell with no verdict was not graded; record that as an error, never as full points.

    nbgrader gives full points to a test cell whose outputs hold no error, which is also true of
    a cell nothing wrote (jupyter/nbgrader#427). GradeAnswerCells writes every test cell of ours.
    """

    def preprocess_cell(self, cell, resources, index):
        if _is_test_cell(cell):
            printed = any(o.get("output_type") in ("stream", "error") for o in cell.get("outputs", []))
            if not printed:
                cell.outputs.append(
                    nbformat.v4.new_output(
                        "error",
                        ename="NotGraded",
                        evalue="this test cell was not graded",
                        traceback=["NotGraded: this test cell was not graded (not a key point of the course)"],
                    )
                )
        return cell, resources


def _is_rubric(cell) -> bool:
    return cell.cell_type == "markdown" and cell.source.lstrip().startswith(notebooks.RUBRIC_MARK)


class AddRubrics(NbGraderPreprocessor):
    """Under each C written answer, the course's key points as its rubric: formgrader shows the
    autograded notebook, so the grader reads the rubric beside the answer (feedback leaves it out)."""

    def preprocess(self, nb, resources):
        cells = []
        for cell in nb.cells:
            if _is_rubric(cell):
                continue  # only ours
            cells.append(cell)
            ex_id, _, kind = _meta(cell).get("grade_id", "").partition("__")
            if kind == "written" and ex_id in catalog.BY_ID:
                cells.append(nbformat.v4.new_markdown_cell(notebooks.rubric(catalog.get(ex_id))))
        nb.cells = cells
        return nb, resources


def _display_data_priority() -> List:
    """nbgrader's preprocessors redeclare nbconvert's ``display_data_priority`` without
    ``config=True``, and the HTML exporter's default config sets it for every ``NbConvertBase``:
    traitlets then warned "Config option `display_data_priority` not recognized by ..." at each
    generate_feedback. The same default, configurable again (the feedback's HTML uses the exporter's)."""
    return List(NbGraderPreprocessor.display_data_priority.default_value).tag(config=True)


class FeedbackClearHiddenTests(ClearHiddenTests):
    """generate_feedback: nbgrader's ClearHiddenTests, taking the exporter's config without a warning."""

    display_data_priority = _display_data_priority()


class HideRubrics(NbGraderPreprocessor):
    """generate_feedback: the students' feedback has no rubric cells."""

    display_data_priority = _display_data_priority()

    def preprocess(self, nb, resources):
        nb.cells = [c for c in nb.cells if not _is_rubric(c)]
        return nb, resources


# nbgrader's own words a student reads on a course in any language, set in the course's language by its
# nbgrader_config.py (:func:`student_words`): the stub of a written answer and of a code cell that is no
# exercise's as released, and the Validate button's warnings ({num_changed}, {num_failed} kept).
TEXT_STUB = N_("YOUR ANSWER HERE")
CODE_STUB = N_("# YOUR CODE HERE")
VALIDATE_WARNINGS = {
    "type_changed_warning": N_(
        "THE TYPES OF {num_changed} CELL(S) HAVE CHANGED! This might mean that even though the tests are "
        "passing now, they won't pass when your assignment is graded."
    ),
    "changed_warning": N_(
        "THE CONTENTS OF {num_changed} TEST CELL(S) HAVE CHANGED! This might mean that even though the tests "
        "are passing now, they won't pass when your assignment is graded."
    ),
    "failed_warning": N_(
        "VALIDATION FAILED ON {num_failed} CELL(S)! If you submit your assignment as it is, you WILL NOT "
        "receive full credit."
    ),
}
# nbgrader's autograde stores this comment under every answer cell left as released (SaveAutoGrades);
# the feedback page shows it in the course's language (FeedbackGrades).
NBGRADER_NO_RESPONSE = "No response."
NO_RESPONSE = N_("No response.")


def student_words(c) -> None:
    """Set nbgrader's student-facing words (:data:`TEXT_STUB`, :data:`CODE_STUB`,
    :data:`VALIDATE_WARNINGS`) in the current language on the config ``c``."""
    c.ClearSolutions.text_stub = str(_(TEXT_STUB))
    c.ClearSolutions.code_stub = {"python": f"{_(CODE_STUB)}\nraise NotImplementedError()"}
    for name, text in VALIDATE_WARNINGS.items():
        setattr(c.Validator, name, str(_(text)) + "\n")


class FeedbackGrades(GetGrades):
    """generate_feedback: nbgrader's GetGrades, and what it leaves unsaid or in English.

    * A C written answer nobody graded yet is **to grade**, not a graded zero: nbgrader's score of
      it is 0.0 (:func:`grader.classroom.roster.written_state`). Its cell gets ``state`` "to grade",
      and ``resources["nbgrader"]["to_grade"]`` the points such answers leave out of the total.
    * nbgrader's automatic comment "No response." is said in the course's language.
    """

    def preprocess(self, nb, resources):
        resources["nbgrader"]["to_grade"] = 0.0
        return super().preprocess(nb, resources)

    def _get_comment(self, cell, resources) -> None:
        super()._get_comment(cell, resources)
        if cell.metadata.nbgrader.get("comment") == NBGRADER_NO_RESPONSE:
            cell.metadata.nbgrader["comment"] = str(_(NO_RESPONSE))

    def _get_score(self, cell, resources) -> None:
        super()._get_score(cell, resources)
        if not cell.metadata.nbgrader.get("grade_id", "").endswith("__written"):
            return
        grade = self.gradebook.find_grade(
            cell.metadata.nbgrader["grade_id"], self.notebook_id, self.assignment_id, self.student_id
        )
        state = roster.written_state(grade)
        cell.metadata.nbgrader["state"] = state
        if state == "to grade":
            resources["nbgrader"]["to_grade"] += grade.max_score or 0.0


# nbgrader's feedback template says "Grade cell:", "Score: 1.0 / 1.0", "(Top)" in English whatever the
# course's language: ours (nbconvert/feedback/index.html.j2, nbgrader's layout) takes its words from here.
FEEDBACK_WORDS = {
    "score": N_("Score: {score} / {max}"),
    "check": N_("Key point:"),
    "answer": N_("Your answer"),
    "written": N_("Written answer"),
    "task": N_("Your task"),
    "comment": N_("Comments"),
    "top": N_("(top)"),
    "late": N_("Late submission penalty: -{penalty}"),
    "to_grade": N_("to grade ({max} points)"),
    "pending": N_(
        "{points} points of written answers are still to grade: this total leaves them out until they are graded"
    ),
}
FEEDBACK_TEMPLATES = Path(__file__).parent / "nbconvert"  # its template "feedback", in place of nbgrader's


def feedback_template_dirs() -> list[str]:
    """``HTMLExporter.extra_template_basedirs`` for the course: ours first, so that "feedback" (the name
    nbgrader's generate_feedback and formgrader's feedback button ask for) is our template; then
    nbgrader's own, where formgrader finds its "formgrade" template."""
    from nbgrader.server_extensions.formgrader import handlers

    return [str(FEEDBACK_TEMPLATES), handlers.template_path]


class FeedbackWords(NbGraderPreprocessor):
    """generate_feedback: the feedback template's words (:data:`FEEDBACK_WORDS`) in the course's
    language, as ``resources["words"]``."""

    display_data_priority = _display_data_priority()

    def preprocess(self, nb, resources):
        from grader import i18n
        from grader.reports.html import HTML_LANG

        resources["words"] = {"lang": HTML_LANG[i18n.current()], **{k: str(_(v)) for k, v in FEEDBACK_WORDS.items()}}
        return nb, resources


# ---------------------------------------------------------------------------- export
EXPORT_COLUMNS = [
    "assignment",
    "duedate",
    "timestamp",
    "student_id",
    "last_name",
    "first_name",
    "email",
    "raw_score",
    "late_submission_penalty",
    "score",
    "max_score",
    "status",
    "key_points",
    "key_points_max",
    "written",
    "written_max",
    "written_to_grade",
]


class ExportGrades(ExportPlugin):
    """grades.csv: nbgrader's columns, one row per student and assignment, for every student of
    the class (the gradebook's and every folder of ``submitted/``), plus:

    status            graded | not submitted [(empty folder | found <other>.ipynb)] | not graded (<why>);
                      the score columns are empty unless graded
    key_points        points of the autograded test cells (what counts toward the level)
    written           points of the C written answers graded so far (never toward the level)
    written_to_grade  written answers not graded by hand yet
    """

    def export(self, gradebook) -> None:
        course = Path(self.parent.coursedir.root).resolve()
        students = [s for s in roster.students(course, gradebook) if not self.student or s in self.student]
        out = io.StringIO(newline="")
        writer = csv.DictWriter(out, fieldnames=EXPORT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for assignment in gradebook.assignments:
            if self.assignment and assignment.name not in self.assignment:
                continue
            for student in students:
                writer.writerow(export_row(course, gradebook, assignment, student))
        dest = Path(self.to or "grades.csv")
        roster.write_text(dest, out.getvalue())
        self.log.info("Exported grades to %s", dest)


def export_row(course: Path, gradebook, assignment, student: str) -> dict:
    from nbgrader.api import MissingEntry

    try:
        who = gradebook.find_student(student)
        names = {"last_name": who.last_name or "", "first_name": who.first_name or "", "email": who.email or ""}
    except MissingEntry:
        names = {"last_name": "", "first_name": "", "email": ""}
    row = {
        "assignment": assignment.name,
        "duedate": assignment.duedate or "",
        "timestamp": "",
        "student_id": student,
        **names,
        "max_score": assignment.max_score,
    }
    state, note = roster.status(course, gradebook, assignment.name, student)
    row["status"] = roster.shown(state, note)
    if state != "graded":
        return row
    sub = gradebook.find_submission(assignment.name, student)
    key_points = key_max = written = written_max = 0.0
    to_grade = 0
    for nb in sub.notebooks:
        for grade in nb.grades:
            if grade.name.endswith("__written"):
                written_max += grade.max_score
                state = roster.written_state(grade)
                to_grade += state == "to grade"
                written += grade.score if state == "graded" else 0.0
            else:
                key_max += grade.max_score
                key_points += grade.score or 0
    row.update(
        timestamp=sub.timestamp or "",
        raw_score=sub.score,
        late_submission_penalty=sub.late_submission_penalty or 0.0,
        score=max(0.0, sub.score - (sub.late_submission_penalty or 0.0)),
        key_points=key_points,
        key_points_max=key_max,
        written=written if written_max else "",
        written_max=written_max or "",
        written_to_grade=to_grade if written_max else "",
    )
    return row


# ---------------------------------------------------------------------------- validate
class SetTimeouts:
    """``Execute.timeout_func``: a cell of an exercise of set S waits ``timeouts[S]`` seconds; a
    cell of no exercise (one the student added) the limit of the set of the cell before it."""

    def __init__(self, timeouts: dict[str, int]):
        self.timeouts = dict(timeouts)
        self._set: str | None = None

    def __call__(self, cell) -> int:
        ex_id = _meta(cell).get("grade_id", "").partition("__")[0]
        if ex_id in catalog.BY_ID:
            self._set = catalog.get(ex_id).set
        elif ex_id in self.timeouts:
            self._set = ex_id  # the intro cell: "A__intro"
        if self._set in self.timeouts:
            return self.timeouts[self._set]
        return max(self.timeouts.values())

    def __repr__(self) -> str:
        return f"SetTimeouts({json.dumps(self.timeouts)})"
