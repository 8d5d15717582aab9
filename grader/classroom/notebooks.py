"""Classroom mode, building: an nbgrader course from the same catalog, stubs, solutions and checks.

One assignment per question set (``set_R``, ``set_A``, ... ``set_X``): the course's self-test,
its pass line and its mastery levels are all counted per set. Nothing is copied: a notebook's
answer cell is generated from the stub (signatures, docstrings) with the solution's bodies inside
nbgrader's ``### BEGIN SOLUTION`` regions (the release version is the stub itself); each key point
is one autograder test cell, worth one point, that calls :func:`check`.

Who grades what:

* in the student's kernel (Run All, Validate), :func:`check` grades the latest answer cell with
  the same sandboxed runner as ``make grade`` and prints the key point's verdict;
* during ``nbgrader autograde`` no kernel runs: :class:`grader.classroom.pipeline.GradeAnswerCells`
  reads the answer cells from the notebook file and grades them with that runner, outside any
  process of the student's.

Instructor flow (docs/classroom.md)::

    grader classroom build course/          # nbgrader_config.py, source/set_*/set_*.ipynb, .grader/manifest.json
    cd course
    nbgrader generate_assignment set_A      # release/: the stubs, no solutions
    # students' notebooks go to submitted/<student>/set_A/set_A.ipynb
    nbgrader autograde set_A
    nbgrader generate_feedback set_A
    nbgrader export                         # grades.csv
    grader classroom mastery .              # mastery.csv / mastery.json: level per student
"""

from __future__ import annotations

import ast
import hashlib
import re
import tempfile
import textwrap
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from grader import i18n
from grader.course import catalog, stub_docs
from grader.course.catalog import ROOT
from grader.i18n import N_, _

SETS = catalog.SETS
ANSWER_MARK = "# {id} answer"


def assignment_name(set_id: str) -> str:
    return f"set_{set_id}"


def grade_id(ex_id: str, kp_id: str) -> str:
    return f"{ex_id}__{kp_id}"


# ---------------------------------------------------------------------------- building
def _nbgrader(cell, **meta):
    cell.metadata["nbgrader"] = {
        "schema_version": 3,
        "grade": False,
        "solution": False,
        "locked": False,
        "task": False,
        **meta,
    }
    return cell


def _lines(src: str, start: int, end: int) -> list[str]:
    return src.splitlines()[start - 1 : end]


def _docstring_node(body: list) -> bool:
    return (
        bool(body)
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )


def _bound_names(node: ast.stmt) -> set[str]:
    """The module-level names a statement defines."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    names = set()
    for target in getattr(node, "targets", None) or [getattr(node, "target", None)]:
        for sub in ast.walk(target) if target is not None else ():
            if isinstance(sub, ast.Name):
                names.add(sub.id)
    return names


def _used_names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _sibling_import(node: ast.stmt) -> tuple[str, dict[str, str]] | None:
    """``(module, {local name: its name there})`` when ``node`` imports from another exercise's
    module (``from p2_training_loop import lr_at``, with or without a ``solutions.`` fallback)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.ImportFrom) and sub.module and not sub.level:
            module = sub.module.removeprefix("solutions.")
            if module in catalog.BY_MODULE:
                return module, {a.asname or a.name: a.name for a in sub.names}
    return None


def _module(module: str) -> tuple[str, ast.Module]:
    src = (ROOT / "solutions" / f"{module}.py").read_text()
    return src, ast.parse(src)


ANSWER_MARK_NOTE = N_(" — the grader reads your code from this cell; keep this line.")


def answer_source(ex: catalog.Exercise) -> str:
    """The answer cell of the source notebook: the stub, each function body replaced by the
    solution's inside a solution region.

    Solution code the stub lacks (imports, helpers, constants) goes in one region of its own
    before the first function; its release version is a comment. A solution that imports
    another exercise's functions (C5 reuses P2's loop) gets them inlined, with the helpers and
    imports they need, since an answer cell is graded on its own.
    """
    stub_src = (ROOT / "exercises" / f"{ex.module}.py").read_text()
    sol_src, sol = _module(ex.module)
    stub = ast.parse(stub_src)
    stub_texts = {ast.unparse(n) for n in stub.body if not isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stub_names = set().union(*(_bound_names(n) for n in stub.body if not isinstance(n, ast.Expr)))

    bodies: dict[str, tuple[str, ast.FunctionDef]] = {
        n.name: (sol_src, n) for n in sol.body if isinstance(n, ast.FunctionDef)
    }
    sol_names = set().union(*(_bound_names(n) for n in sol.body if not isinstance(n, ast.Expr)))
    extras: list[str] = []
    seen = set(stub_texts)

    def add(src: str, node: ast.stmt) -> None:
        text = ast.unparse(node)
        if text in seen:
            return
        seen.add(text)
        start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
        if extras and isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            extras.extend(["", ""])
        extras.extend(_lines(src, start, node.end_lineno))

    siblings = []
    for node in sol.body:
        if node is sol.body[0] and _docstring_node(sol.body):
            continue  # the module docstring
        found = _sibling_import(node)
        if found:
            siblings.append(found)
            continue
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in stub_names:
            continue  # goes in the stub's slot
        add(sol_src, node)
    for module, names in siblings:  # e.g. C5: P2's lr_at, configure_optimizer, train_step
        sib_src, sib = _module(module)
        defs = {}
        for node in sib.body:
            for name in _bound_names(node) if not isinstance(node, ast.Expr) else ():
                defs.setdefault(name, node)
        wanted, todo = [], []
        for local, theirs in names.items():
            node = defs.get(theirs)
            if not isinstance(node, ast.FunctionDef) or local != theirs:
                raise ValueError(
                    f"solutions/{ex.module}.py imports {theirs} from {module}: "
                    "only functions, under their own name, can be inlined"
                )
            if local in stub_names:
                bodies[local] = (sib_src, node)
            else:
                wanted.append(node)
            todo.append(node)
        needed: set[int] = {id(n) for n in wanted}
        while todo:  # what the inlined functions use from their module, transitively
            for name in _used_names(todo.pop()):
                node = defs.get(name)
                if (
                    node is not None
                    and id(node) not in needed
                    and name not in stub_names
                    and (name not in sol_names or isinstance(node, (ast.Import, ast.ImportFrom)))
                ):
                    needed.add(id(node))
                    todo.append(node)
        for node in sib.body:  # in their module's order
            if id(node) in needed:
                add(sib_src, node)

    out = [ANSWER_MARK.format(id=ex.id) + _(ANSWER_MARK_NOTE)]
    body_started = False
    for node in stub.body:
        if node is stub.body[0] and _docstring_node(stub.body):
            continue  # the module docstring becomes the markdown cell
        if not isinstance(node, ast.FunctionDef):
            out += _lines(stub_src, node.lineno, node.end_lineno)
            continue
        if not body_started and extras:
            out += ["", "### BEGIN SOLUTION", *extras, "### END SOLUTION"]
        body_started = True
        out += ["", ""] + _head(stub_src, node)
        if node.name not in bodies:
            raise ValueError(f"solutions/{ex.module}.py lacks {node.name}, and imports it from no other exercise")
        src, fn = bodies[node.name]
        first = fn.body[1] if len(fn.body) > 1 and _docstring_node(fn.body) else fn.body[0]
        out += ["    ### BEGIN SOLUTION", *_lines(src, first.lineno, fn.end_lineno), "    ### END SOLUTION"]
    return "\n".join(out) + "\n"


def _head(stub_src: str, node: ast.FunctionDef) -> list[str]:
    """A stub function's ``def`` and its docstring in the notebook's language only: the half the
    stub writes in that language (from the source's lines, so escapes stay as written)."""
    if not _docstring_node(node.body):
        return _lines(stub_src, node.lineno, node.body[0].lineno - 1)
    doc = node.body[0]
    head, lines = _lines(stub_src, node.lineno, doc.lineno - 1), _lines(stub_src, doc.lineno, doc.end_lineno)
    at = next(
        (i for i in range(len(lines) - 1) if lines[i].strip() == "English" and set(lines[i + 1].strip()) == {"-"}),
        None,
    )
    if at is None:  # one language only
        return head + lines
    indent = lines[0][: len(lines[0]) - len(lines[0].lstrip())]
    if i18n.current() == "zh":
        zh = lines[:at]
        while zh and not zh[-1].strip():
            zh.pop()
        return head + zh + [indent + '"""']
    en = lines[at + 2 :]
    while en and not en[0].strip():
        en.pop(0)
    return head + [indent + '"""' + en[0].lstrip(), *en[1:]]


YOUR_CODE_HERE = N_("# YOUR CODE HERE")
MODULE_REGION_STUB = N_("# Your own imports and helper functions, if you need any.")


def _stub_bodies(ex: catalog.Exercise) -> dict[str, list[str]]:
    """Each stub function's statements after its docstring (``raise NotImplementedError("A3: ...")``)."""
    src = (ROOT / "exercises" / f"{ex.module}.py").read_text()
    out = {}
    for node in ast.parse(src).body:
        if isinstance(node, ast.FunctionDef):
            rest = node.body[1:] if _docstring_node(node.body) else node.body
            if rest:
                out[node.name] = textwrap.dedent(
                    "\n".join(_lines(src, rest[0].lineno, rest[-1].end_lineno))
                ).splitlines()
    return out


def release_source(source: str, ex: catalog.Exercise | None) -> str:
    """An answer cell as students get it: each function's solution region becomes the stub's own
    body (``# YOUR CODE HERE`` and its ``raise NotImplementedError("A3: ...")``), the module-level
    region a comment. So the release answer cell is the stub file, and it imports cleanly."""
    stubs = _stub_bodies(ex) if ex is not None else {}
    out: list[str] = []
    in_region = False
    for line in source.split("\n"):
        if "BEGIN SOLUTION" in line:
            in_region = True
            indent = line[: len(line) - len(line.lstrip())]
            if not indent:
                out.append(_(MODULE_REGION_STUB))
                continue
            func = next(
                (
                    m.group(2)
                    for prev in reversed(out)
                    if (m := re.match(r"(\s*)def (\w+)\(", prev)) and len(m.group(1)) < len(indent)
                ),
                None,
            )
            body = stubs.get(func, ["raise NotImplementedError()"])
            out += [indent + _(YOUR_CODE_HERE), *(indent + b for b in body)]
        elif "END SOLUTION" in line:
            in_region = False
        elif not in_region:
            out.append(line)
    return "\n".join(out)


def label(kp: catalog.KeyPoint) -> str:
    """A key point as a test cell or a rubric names it, in the current language."""
    return kp.claim_text(prefix=False) + (_(FOLLOW_UP_NOTE) if kp.followup else "")


FOLLOW_UP_NOTE = N_(" (follow-up: counts for can-teach only)")
NOT_HERE = N_(
    "{ex_id} · {kp_id}: not checked: this Jupyter does not have the course grader (toolbox-grader). "
    'See "How to check your work" in the first cell of this notebook.'
)

# The import is guarded: where the released notebook is all a student has (a class JupyterHub),
# each test cell says how to check the work instead of a ModuleNotFoundError traceback.
NO_GRADER = N_("no course grader in this Jupyter")
CHECK_CALL = """# {ex_id} · {kp_id}: {label}
try:
    from grader.classroom import check
except ModuleNotFoundError:  # {no_grader}
    import sys
    print({not_here!r}, file=sys.stderr)
else:
    check({ex_id!r}, {kp_id!r}, In, lang={lang!r})"""


def check_call(ex: catalog.Exercise, kp: catalog.KeyPoint) -> str:
    """A test cell's code: one key point's verdict, printed by :func:`check`."""
    return CHECK_CALL.format(
        ex_id=ex.id,
        kp_id=kp.id,
        label=label(kp),
        not_here=_(NOT_HERE, ex_id=ex.id, kp_id=kp.id),
        lang=i18n.current(),
        no_grader=_(NO_GRADER),
    )


INTRO = N_("""# {title} (set {set_id})

{listing}

**How to answer.** Write each answer in its answer cell, in place of `raise NotImplementedError(...)`.
Keep the cell's first line (`{mark} ...`): the grader finds your code by it. Each answer cell is
graded **on its own**, as the module `exercises/<module>.py` would be: import what it needs inside it,
not from another cell or another exercise.

**How to check your work.** Each test cell under an answer grades that answer with the course's hidden
checks, in a sandbox, on inputs drawn for your code, exactly as `make grade` does, and prints one key
point's verdict: *passed*, or what was checked, what came back, on which input, and which part of the
course to re-read (never the expected value). So:

- run the notebook (*Kernel > Restart Kernel and Run All Cells*) and read each test cell's verdict; or
- press **Validate** (or run `nbgrader validate {name}.ipynb`): it lists every key point that fails, and
  says *Success* only when all of them pass; or
- outside the notebook, copy an answer cell into `exercises/<module>.py` and run `make grade ONLY=<id>`.

The test cells need the course's grader (the toolbox-grader project) in the Jupyter you work in: the
course machine, or a Jupyter started from the project's environment. Where you have only this notebook
(a class JupyterHub, a laptop), each test cell says *not checked* instead of a verdict, and Validate
fails on every one: check your work by submitting it and reading the feedback once your instructor
releases it, or with `make grade` on a machine that has the project; ask your instructor which.

When you submit, every answer cell is graded again from the notebook file; what your notebook printed
does not count, and editing a test cell changes nothing. Each key point is one point.{written}""")

WRITTEN_NOTE = N_(""" The **written answers**
(the cells headed *in words*) are read and graded by hand; they do not count toward your level.""")
LISTED = N_("- **{id}** {title} (`exercises/{module}.py`, {n} key points)")
ON_ITS_OWN = N_(
    "*In this notebook the answer cell is graded on its own: write (or paste) the functions "
    "you would import from another exercise's module into this cell.*"
)
IN_WORDS = N_(
    "**{id}, in words.** Answer the interview question as you would aloud, in a few sentences "
    "with the numbers that matter. Graded by hand, one point per key point; not part of your level."
)
MODEL_ANSWER = N_("A full answer covers:")
RUBRIC_HEAD = N_("**Rubric for {id}'s written answer** (one point per key point of the course):")
REREAD = N_("re-read: {where}")

RUBRIC_MARK = "<!-- toolbox-grader rubric -->"


def rubric(ex: catalog.Exercise) -> str:
    """The course's key points of a C question, as the written answer's rubric (one point each)."""
    items = "\n".join(
        f"{i}. {label(kp)}"
        + (f": {kp.lesson_text()}" if kp.lesson else "")
        + "  \n   "
        + _(REREAD, where=kp.reread_text())
        for i, kp in enumerate(ex.key_points, 1)
    )
    return f"{RUBRIC_MARK}\n{_(RUBRIC_HEAD, id=ex.id)}\n\n{items}"


def notebook(set_id: str, exercises: list[catalog.Exercise]) -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    name = assignment_name(set_id)
    listing = "\n".join(
        _(LISTED, id=ex.id, title=ex.title_text(), module=ex.module, n=len(ex.key_points)) for ex in exercises
    )
    nb.cells.append(
        _nbgrader(
            new_markdown_cell(
                _(
                    INTRO,
                    title=_(catalog.SET_TITLES[set_id]),
                    set_id=set_id,
                    name=name,
                    listing=listing,
                    mark=ANSWER_MARK.format(id=exercises[0].id),  # this set's own first exercise
                    written=_(WRITTEN_NOTE) if set_id == "C" else "",
                )
            ),
            locked=True,
            grade_id=f"{set_id}__intro",
        )
    )
    for ex in exercises:
        doc = ast.get_docstring(ast.parse((ROOT / "exercises" / f"{ex.module}.py").read_text())) or ""
        doc = stub_docs.half(doc, i18n.current())  # the question in the notebook's language
        note = ""
        if any(_sibling_import(n) for n in _module(ex.module)[1].body):
            note = "\n\n" + _(ON_ITS_OWN)
        nb.cells.append(
            _nbgrader(
                new_markdown_cell(f"## {ex.id} — {ex.title_text()}\n\n{doc}{note}"),
                locked=True,
                grade_id=f"{ex.id}__question",
            )
        )
        nb.cells.append(_nbgrader(new_code_cell(answer_source(ex)), solution=True, grade_id=f"{ex.id}__answer"))
        for kp in ex.key_points:
            nb.cells.append(
                _nbgrader(
                    new_code_cell(check_call(ex, kp)),
                    grade=True,
                    locked=True,
                    points=1,
                    grade_id=grade_id(ex.id, kp.id),
                )
            )
        if ex.set == "C":
            model = "\n".join(f"- {label(kp)}" + (f": {kp.lesson_text()}" if kp.lesson else "") for kp in ex.key_points)
            nb.cells.append(
                _nbgrader(
                    new_markdown_cell(
                        f"{_(IN_WORDS, id=ex.id)}\n\n### BEGIN SOLUTION\n{_(MODEL_ANSWER)}\n{model}\n### END SOLUTION"
                    ),
                    solution=True,
                    grade=True,
                    points=len(ex.key_points),
                    grade_id=f"{ex.id}__written",
                )
            )
    return nb


NBGRADER_CONFIG = """\
# Generated by `grader classroom build` (docs/classroom.md). nbgrader configuration of this course.
import sys
import traceback
import warnings

c = get_config()  # noqa: F821
try:
    from grader import i18n
    i18n.use({lang!r})  # the course's language (`grader classroom build --lang`): feedback, rubrics
    from grader.classroom import pipeline
    from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
    from nbgrader.converters import Autograde, GenerateAssignment
    from nbgrader.preprocessors import ClearSolutions, SaveAutoGrades

    c.CourseDirectory.root = {root!r}
    # nbgrader release_assignment / fetch_assignment / submit / collect: this course's id and an exchange
    # folder inside the course (nbgrader's default, /usr/local/share/nbgrader/exchange, needs root);
    # the students' own nbgrader config names the same two (docs/classroom.md, release and collect).
    c.CourseDirectory.course_id = {course_id!r}
    c.Exchange.root = {exchange!r}
    # SQLAlchemy's autoflush warnings from nbgrader's gradebook code, three per new submission: noise.
    from sqlalchemy.exc import SAWarning
    warnings.filterwarnings("ignore", message=r"Object of type <\\w+> not in session", category=SAWarning)
    # One notebook per set, named after it: a submission holding only "set_A (1).ipynb" is not
    # submitted (nbgrader warns "No notebooks were matched"; grades.csv and mastery.csv say so).
    c.CourseDirectory.notebook_id = "set_?"
    if sys.argv[1:2] == ["autograde"]:  # before anything is graded: the grader's files are those sealed at build
        pipeline.require_manifest(c.CourseDirectory.root)
        # a notebook nbgrader fails on is "not graded (autograde failed)"; the class's run still exits 0
        pipeline.keep_going(Autograde)

    # generate_assignment: a release answer cell is the stub (its own `raise NotImplementedError("A3: ...")`).
    c.GenerateAssignment.preprocessors = pipeline.replace(GenerateAssignment, ClearSolutions, [pipeline.ReleaseStubs])
    # nbgrader's own words a student reads (a written answer's "YOUR ANSWER HERE", Validate's warnings),
    # in the course's language
    pipeline.student_words(c)

    # autograde: no Execute. nbgrader's kernel would run the student's notebook as this user, outside
    # the sandbox. GradeAnswerCells grades each answer cell from the notebook file with the sandboxed
    # runner (only answers changed since the last autograde), and writes every test cell's verdict;
    # RequireGradeOutputs turns a test cell it did not write into an error, never free points;
    # AddRubrics puts each C written answer's rubric under it, for formgrader.
    c.Autograde.autograde_preprocessors = pipeline.autograde_steps(Autograde, SaveAutoGrades)
    # Before nbgrader's own checks: another set's notebook under this set's name is "not submitted
    # (wrong notebook)", not an OverwriteCells error.
    c.Autograde.sanitize_preprocessors = pipeline.sanitize_steps(Autograde)
    c.OverwriteCells.add_missing_cells = True   # a deleted test cell comes back and is graded
    c.Autograde.create_student = True
    c.GradeAnswerCells.jobs = 0                 # exercises graded at once; 0: one per CPU

    # generate_feedback: the verdicts, not the rubrics, on a page whose words are the course's language's;
    # a written answer nobody graded yet is "to grade", not a zero (FeedbackGrades, in place of GetGrades)
    # (our template "feedback", found before nbgrader's; formgrader's own templates stay nbgrader's).
    c.GenerateFeedback.preprocessors = [
        pipeline.FeedbackGrades, pipeline.FeedbackClearHiddenTests, pipeline.HideRubrics, pipeline.FeedbackWords,
        CSSHTMLHeaderPreprocessor,
    ]
    c.HTMLExporter.extra_template_basedirs = pipeline.feedback_template_dirs()

    # export: grades.csv also lists who did not submit, and keeps written points apart from key points.
    c.ExportApp.plugin_class = pipeline.ExportGrades

    # validate (the students' Validate button) runs the notebook in a kernel; a cell waits as long as
    # the catalog allows the exercises of its set, plus a margin:
    c.Execute.timeout_func = pipeline.SetTimeouts({timeouts!r})
    c.Execute.timeout = {longest}
    c.Execute.interrupt_on_timeout = True
    c.Validator.width = 200  # Validate's report keeps whole lines (what was checked, where to re-read)
except Exception:  # never fall back to nbgrader's defaults: their autograde runs student notebooks (Execute)
    traceback.print_exc()
    sys.exit("[grader] this course's nbgrader_config.py did not load (traceback above); stopping instead of "
             "running nbgrader with its defaults. Is the project importable (its .venv, PYTHONPATH)?")
"""

TIMEOUT_MARGIN_S = 30  # a check process's start and its report, on top of the exercise's own limit


def set_timeouts() -> dict[str, int]:
    """Per set: the longest wall-clock limit of its exercises in the catalog, plus a margin. The
    first test cell of an exercise grades all of it, so a cell may take that long, never longer."""
    out = {}
    for set_id in SETS:
        limits = [ex.timeout_s for ex in catalog.CATALOG if ex.set == set_id and ex.available]
        if limits:
            out[set_id] = int(max(limits) + TIMEOUT_MARGIN_S)
    return out


EXCHANGE = "exchange"  # the course's nbgrader exchange folder, inside it


def course_id_of(course: Path) -> str:
    """nbgrader's course id of a course built without ``--course-id``: its folder's name."""
    return Path(course).resolve().name


def course_language(course_dir: str | Path) -> str | None:
    """The language a course was built in (``grader classroom build --lang``), as its
    nbgrader_config.py records it; None for a folder that is not such a course."""
    import re

    try:
        text = (Path(course_dir) / "nbgrader_config.py").read_text()
    except OSError:
        return None
    found = re.search(r"i18n\.use\('(\w+)'\)", text)
    return found.group(1) if found and found.group(1) in i18n.LANGS else None


def build_course(course_dir: str | Path, only: list[str] | None = None, course_id: str | None = None) -> list[str]:
    """Write nbgrader_config.py, source/set_*/set_*.ipynb and the manifest of the grader's files;
    returns the assignment names. ``only`` restricts the notebooks to some exercises (tests);
    ``course_id`` is nbgrader's course id (default: the folder's name). The
    notebooks speak the current language (:func:`grader.i18n.use`; ``grader classroom build --lang``),
    and so do the course's feedback and rubrics (nbgrader_config.py) and its test cells."""
    from grader.classroom import manifest

    course = Path(course_dir).resolve()
    wanted = {catalog.get(i).id for i in only} if only else None
    names = []
    for set_id in SETS:
        exs = [
            ex for ex in catalog.CATALOG if ex.set == set_id and ex.available and (wanted is None or ex.id in wanted)
        ]
        if not exs:
            continue
        name = assignment_name(set_id)
        folder = course / "source" / name
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook(set_id, exs), folder / f"{name}.ipynb")
        names.append(name)
    timeouts = set_timeouts()
    (course / "nbgrader_config.py").write_text(
        NBGRADER_CONFIG.format(
            root=str(course),
            course_id=course_id or course_id_of(course),
            exchange=str(course / EXCHANGE),
            timeouts=timeouts,
            longest=max(timeouts.values()),
            lang=i18n.current(),
        )
    )
    manifest.write(course)
    # A course holds the students' work and the gradebook: never committed or linted with the
    # project it may be built inside (docs/classroom.md); delete the file to track the course.
    ignore = course / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# written by grader classroom build: the students' work stays out of git\n*\n")
    return names


# ---------------------------------------------------------------------------- verdicts
def is_release_stub(source: str, ex: catalog.Exercise) -> bool:
    """The answer cell is the stub as released (comments, layout and docstrings aside: a cell
    released in one language counts): "not implemented" without being run, as in every mode
    (:mod:`grader.engine.stubs`)."""
    from grader.engine import stubs

    return stubs.is_release_stub(source, ex)


def untouched_result(ex: catalog.Exercise):
    from grader.engine import stubs

    return stubs.untouched_result(ex)


def class_feedback(ex: catalog.Exercise, kp) -> str:
    """A failed key point as a student sees it in the classroom: make grade's feedback
    (:func:`grader.reports.terminal.feedback`) of a key point already through make grade's
    withholding rule (:func:`grader.engine.attempts.gate`, over the whole notebook), never with the
    hidden checks' expected value nor the hint that can state it, key points named as the test
    cells name them."""
    from grader.reports import terminal

    return terminal.feedback(ex, kp, reveal_expected=False, label=label, whole_exercise=terminal.WHOLE_EXERCISE)


def shown_as_cell(result, path: Path, ex: catalog.Exercise):
    """The result with the answer's file named as the student knows it: the answer cell."""
    import dataclasses

    where = str(path)
    name = _("{id} answer cell", id=ex.id)
    kps = [
        dataclasses.replace(
            k,
            **{
                f: getattr(k, f).replace(where, name)
                for f in ("message", "traceback", "example")
                if isinstance(getattr(k, f), str)
            },
        )
        for k in result.key_points
    ]
    return dataclasses.replace(result, key_points=kps, note=result.note.replace(where, name))


def verdict(ex: catalog.Exercise, result, kp_id: str) -> tuple[str, str]:
    """(``passed``, ``failed`` or ``not_verifiable``; the text a test cell shows) for one key point
    of ``result`` as :func:`grader.engine.attempts.gate` left it (see :func:`class_feedback`)."""
    kp = next((k for k in result.key_points if k.key_point == kp_id), None)
    if kp is None:
        return "failed", _("{id} · {kp}: not graded ({why})", id=ex.id, kp=kp_id, why=result.note or result.status)
    if kp.passed:
        return "passed", _("{id} · {kp}: passed", id=ex.id, kp=kp_id)
    if kp.status == "not_verifiable":
        return "not_verifiable", _(
            "{id} · {kp}: not verifiable here ({why}); no point for it in the notebook, and left out of your level",
            id=ex.id,
            kp=kp_id,
            why=kp.message,
        )
    passed = sum(k.passed for k in result.key_points)
    head = _(
        "{id} · {kp} failed ({passed} of {n} key points of {id} pass)",
        id=ex.id,
        kp=kp_id,
        passed=passed,
        n=len(result.key_points),
    )
    return "failed", f"{head}\n{class_feedback(ex, kp)}"


# ---------------------------------------------------------------------------- the student's kernel
_graded: dict[tuple[str, str], object] = {}


def answer_from_history(ex_id: str, history: list[str]) -> str | None:
    """The last executed cell that starts with the exercise's answer mark."""
    mark = ANSWER_MARK.format(id=ex_id)
    for src in reversed(history or []):
        if src.lstrip().startswith(mark):
            return src
    return None


def check(ex_id: str, kp_id: str, history: list[str], lang: str | None = None) -> None:
    """A test cell, run in the student's kernel (Run All, Validate): grade the exercise's latest
    answer cell once with the sandboxed runner, then print this key point's verdict: a pass to
    stdout, anything else to stderr, which nbgrader's Validate reports as a failure. ``lang``: the
    notebook's language (its test cells name the one it was built in).

    Autograde never runs this: it grades the notebook file outside any kernel (pipeline.GradeAnswerCells).
    """
    import sys
    import warnings

    if lang:
        i18n.use(lang)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state, text = kernel_verdict(ex_id, kp_id, history)
    print(text, file=sys.stderr if state == "failed" else sys.stdout)  # not verifiable: nothing to fix


def kernel_verdict(ex_id: str, kp_id: str, history: list[str]) -> tuple[str, str]:
    from grader.engine import runner

    ex = catalog.get(ex_id)
    source = answer_from_history(ex_id, history)
    if source is None:
        return "failed", _(
            "{id} · {kp}: no answer cell for {id} was run (it must start with '{mark}')",
            id=ex_id,
            kp=kp_id,
            mark=ANSWER_MARK.format(id=ex_id),
        )
    key = (ex_id, hashlib.sha256(source.encode()).hexdigest())
    if key not in _graded:
        if is_release_stub(source, ex):
            _graded[key] = untouched_result(ex)
        else:
            runner.warm_up(heavy=ex.timeout_s > 120)
            with tempfile.TemporaryDirectory(prefix="nb-answer-") as tmp:
                path = Path(tmp) / f"{ex.module}.py"
                path.write_text(source)
                try:
                    _graded[key] = shown_as_cell(runner.grade_exercise(ex, path), path, ex)
                except KeyboardInterrupt:  # the cell's timeout: the other key points fail at once
                    _graded[key] = runner.uniform_result(
                        ex, "timeout", _("grading was interrupted by the notebook's cell timeout")
                    )
                    raise
    from grader.engine import attempts

    # nothing counts attempts in the student's kernel: every recall fact stays withheld
    return verdict(ex, attempts.gate({ex.id: _graded[key]}, None)[ex.id], kp_id)


# ---------------------------------------------------------------------------- results
def write_mastery(course_dir: str | Path, csv_path: Path, json_path: Path) -> list[dict]:
    """mastery.csv and mastery.json of a course (see :mod:`grader.classroom.roster`)."""
    from grader.classroom import roster

    return roster.write_mastery(course_dir, csv_path, json_path)


def mastery(course_dir: str | Path) -> list[dict]:
    from grader.classroom import roster

    return roster.mastery(course_dir)


def gradebook_outcomes(course_dir: str | Path) -> dict[str, tuple[dict, dict]]:
    """student -> (key-point outcomes by exercise, written-answer scores) for every student of the
    class (:mod:`grader.classroom.roster`; what class analytics reads)."""
    from grader.classroom import roster

    return roster.gradebook_outcomes(course_dir)
