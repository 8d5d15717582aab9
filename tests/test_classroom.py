"""The classroom end to end, as an instructor runs it (docs/classroom.md), with real nbgrader,
on a clean copy of the project (its tracked files: nothing built, no cache, no course).

The whole course is built and every set released; grading is kept cheap by answering only two
light exercises of set A (A2, A3) and the written answers of set C. The class:

ada   right answers of her own (A2, A3) and a written answer for C1, graded by hand
bo    a partial A3 (a mutant), a right A2, and a test cell deleted: restored and graded
cy    an A3 answer cell that hangs, a right A2 beside it
di    a syntax error in A2
eve   a cheater (as root only: without root there is no sandbox): her A3 cell writes into the
      project's checks and the course folder, her notebook carries an edited test cell and forged
      outputs; nothing of it counts, and zed, graded after her, is graded as usual
fay   an empty submission folder; gus a misnamed notebook ("set_A (1).ipynb"); ian set C's notebook
      saved as set_A.ipynb: not submitted
hal   a resubmission (a newer timestamp.txt): only the changed answer is graded again
zed   the release notebook, untouched

Then: feedback without expected values or rubrics, grades.csv and mastery.csv, the students'
Validate, `make grade` reusing the classroom's verdicts (the same fingerprints), and a changed
check that stops autograde before it grades anything. The cost of each step is printed.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from grader.course import catalog
from grader.course.catalog import ROOT

BIN = Path(sys.executable).parent
PARTIAL = "solutions/mutants/a3_broadcast/max_of_dims.py"
SETS = [f"set_{s}" for s in catalog.SETS]
ROOTED = os.geteuid() == 0  # the sandbox's walls need root (docs/security.md)
COST: dict[str, float] = {}


BUILT = {".git", ".venv", ".grader-cache", ".model-cache", ".hypothesis", ".pytest_cache", "__pycache__", "build"}


def project_files() -> list[str]:
    """What a clone of this working tree holds: tracked files and new ones git does not ignore
    (outside a git checkout: every file but what a build or a grade leaves behind)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
        return sorted({f for f in out.split("\0") if f and (ROOT / f).is_file()})
    except (OSError, subprocess.CalledProcessError):
        return sorted(
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file()
            and not BUILT & set(p.relative_to(ROOT).parts)
            and not p.name.endswith(".egg-info")
            and not any(part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)
        )


class Class:
    """A clean copy of the project, its course, and the commands an instructor types."""

    def __init__(self, tmp: Path):
        self.project = tmp / "project"
        for rel in project_files():
            dest = self.project / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest)
        self.course = tmp / "course"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTEST", "JUPYTER"))}
        self.env.update(PYTHONPATH=str(self.project), PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
        self.logs: dict[str, str] = {}

    def run(self, step: str, *cmd: str, cwd: Path | None = None, ok: bool = True) -> subprocess.CompletedProcess:
        start = time.monotonic()
        proc = subprocess.run(
            list(cmd), cwd=cwd or self.course, env=self.env, capture_output=True, text=True, timeout=600
        )
        COST[step] = COST.get(step, 0.0) + time.monotonic() - start
        self.logs[step] = proc.stdout + proc.stderr
        if ok:
            assert proc.returncode == 0, f"{step}: {' '.join(cmd)}\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
        return proc

    def grader(self, step: str, *args: str, **kw):
        return self.run(step, sys.executable, "-m", "grader.cli", *args, **kw)

    def nbgrader(self, step: str, *args: str, **kw):
        return self.run(step, str(BIN / "nbgrader"), *args, **kw)

    def submit(self, student: str, assignment: str, nb=None, name: str | None = None, timestamp: str = ""):
        folder = self.course / "submitted" / student / assignment
        folder.mkdir(parents=True, exist_ok=True)
        if nb is not None:
            nbformat.write(nb, folder / (name or f"{assignment}.ipynb"))
        if timestamp:
            (folder / "timestamp.txt").write_text(timestamp)

    def notebook(self, kind: str, assignment: str, student: str = ""):
        path = {
            "source": self.course / "source" / assignment,
            "release": self.course / "release" / assignment,
            "autograded": self.course / "autograded" / student / assignment,
        }[kind]
        return nbformat.read(path / f"{assignment}.ipynb", as_version=4)


def cell(nb, gid: str):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == gid)


def answered(release, **answers: str):
    nb = nbformat.from_dict(release)
    for gid, text in answers.items():
        cell(nb, gid).source = text
    return nb


EVE = """# A3 answer
for path in {targets!r}:  # the check of A3, the gradebook
    try:
        open(path, "a").write("# eve")
    except OSError:
        pass
try:
    open({marker!r}, "w")
except OSError:
    pass


def broadcast_shape(a, b):
    return ()
"""


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    k = Class(tmp_path_factory.mktemp("classroom"))
    k.grader("build", "classroom", "build", str(k.course), cwd=k.project)
    k.nbgrader("generate_assignment", "generate_assignment", "*")

    source, release = k.notebook("source", "set_A"), k.notebook("release", "set_A")
    mark = {ex: f"# {ex} answer\n" for ex in ("A2", "A3")}

    def own(ex_id: str, who: str) -> str:  # right, and the learner's own (not the reference verbatim)
        return cell(source, f"{ex_id}__answer").source + f"\nANSWERED_BY = {who!r}\n"

    partial = mark["A3"] + (k.project / PARTIAL).read_text()
    k.submit("ada", "set_A", answered(release, A2__answer=own("A2", "ada"), A3__answer=own("A3", "ada")))
    bo = answered(release, A2__answer=own("A2", "bo"), A3__answer=partial)
    bo.cells = [c for c in bo.cells if c.metadata["nbgrader"].get("grade_id") != "A2__slice_keeps_dim"]
    k.submit("bo", "set_A", bo)
    k.submit(
        "cy", "set_A", answered(release, A2__answer=own("A2", "cy"), A3__answer=mark["A3"] + "while True:\n    pass\n")
    )
    k.submit("di", "set_A", answered(release, A2__answer=mark["A2"] + "def nbytes(shape, dtype)\n    return 0\n"))
    k.eve_targets = [k.project / "grader/checks/test_a3_broadcast.py", k.course / "gradebook.db"]
    k.eve_marker = k.course / "eve-was-here"
    if ROOTED:
        eve = answered(
            release, A3__answer=EVE.format(targets=[str(t) for t in k.eve_targets], marker=str(k.eve_marker))
        )
        tampered = cell(eve, "A3__matches_numpy")
        tampered.source = "print('A3 · matches_numpy: passed')"
        for c in eve.cells:
            if c.metadata["nbgrader"].get("grade_id", "").startswith("A3__") and c.cell_type == "code":
                c.outputs = [nbformat.v4.new_output("stream", name="stdout", text="passed\n")]
        k.submit("eve", "set_A", eve)
        k.eve_before = {str(t): sha(t) for t in k.eve_targets if t.exists()}
    k.submit("fay", "set_A")
    k.submit("gus", "set_A", answered(release, A3__answer=own("A3", "gus")), name="set_A (1).ipynb")
    k.submit("ian", "set_A", k.notebook("release", "set_C"))  # the wrong notebook under the right name
    k.submit(
        "hal",
        "set_A",
        answered(release, A2__answer=own("A2", "hal"), A3__answer=partial),
        timestamp="2026-03-01 10:00:00.000000 UTC",
    )
    k.submit("zed", "set_A", release)

    c_release = k.notebook("release", "set_C")
    k.submit(
        "ada",
        "set_C",
        answered(
            c_release,
            C1__written="70B x 16 bytes = 1120 GB: full fine-tuning needs 14 "
            "GPUs of 80 GB; LoRA keeps the base in bf16 ...",
            C2__written="clip before the step, after backward ...",  # nobody grades it: "to grade"
        ),
    )
    k.submit("bo", "set_C", c_release)

    k.nbgrader("autograde", "autograde", "set_A")
    k.first_autograde = k.logs["autograde"]
    k.nbgrader("autograde C", "autograde", "set_C")

    # hal resubmits: A3 fixed, A2 unchanged, a newer timestamp
    k.submit(
        "hal",
        "set_A",
        answered(release, A2__answer=own("A2", "hal"), A3__answer=own("A3", "hal")),
        timestamp="2026-03-02 10:00:00.000000 UTC",
    )
    k.nbgrader("autograde (resubmission)", "autograde", "set_A")

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{k.course / 'gradebook.db'}") as gb:  # ada's written C1, graded by hand
        grade = gb.find_grade("C1__written", "set_C", "set_C", "ada")
        grade.manual_score, grade.needs_manual_grade = 4, False  # as formgrader saves a grade
        gb.db.commit()

    k.nbgrader("generate_feedback", "generate_feedback", "set_A")
    k.nbgrader("generate_feedback C", "generate_feedback", "set_C")
    k.nbgrader("export", "export")
    k.grader("mastery", "classroom", "mastery", str(k.course))
    yield k
    print(
        "\nclassroom end to end, seconds per step: "
        + ", ".join(f"{s} {t:.1f}" for s, t in COST.items())
        + f"; total {sum(COST.values()):.1f}"
    )
    print(
        "first autograde, per notebook:\n"
        + "\n".join(line.split("] ", 1)[-1] for line in k.first_autograde.splitlines() if " set_A: " in line)
    )


def test_the_full_course_builds_and_releases(klass):
    for set_id in catalog.SETS:
        name = f"set_{set_id}"
        src, rel = klass.notebook("source", name), klass.notebook("release", name)
        wanted = [ex.id for ex in catalog.CATALOG if ex.set == set_id and ex.available]
        assert [
            c.metadata["nbgrader"]["grade_id"].split("__")[0]
            for c in src.cells
            if c.metadata["nbgrader"]["grade_id"].endswith("__answer")
        ] == wanted
        for ex_id in wanted:  # a release answer cell is its stub: no solution, no wrapper
            ex = catalog.get(ex_id)
            released = cell(rel, f"{ex_id}__answer").source
            # the stub's code, its docstrings in the build's language only (the module's is the question cell)
            from grader.classroom import notebooks

            assert notebooks.is_release_stub(released, ex) and "\nEnglish\n" not in released, ex_id
            assert "BEGIN SOLUTION" not in released and "except NotImplementedError" not in released
        intro = rel.cells[0].source
        assert "How to check your work" in intro and "Validate" in intro and "make grade" in intro
        for c in rel.cells:  # a follow-up is said once: not "follow-up: ... (follow-up)"
            assert ": follow-up:" not in c.source and "(follow-up)" not in c.source
    c5 = cell(klass.notebook("source", "set_C"), "C5__answer").source
    assert "p2_training_loop" not in c5 and "def forward_loss" in c5  # C5's reuse of P2, inlined
    config = (klass.course / "nbgrader_config.py").read_text()
    assert "Execute," not in config and "SetTimeouts" in config


def grades(klass) -> dict[tuple[str, str], dict]:
    with (klass.course / "grades.csv").open() as f:
        return {(r["assignment"], r["student_id"]): r for r in csv.DictReader(f)}


def test_grades_of_the_class(klass):
    g = grades(klass)
    key_points = {s: g["set_A", s]["key_points"] for s in ("ada", "bo", "cy", "di", "hal", "zed")}
    assert key_points == {"ada": "8.0", "bo": "6.0", "cy": "5.0", "di": "0.0", "hal": "8.0", "zed": "0.0"}
    assert g["set_A", "fay"]["status"] == "not submitted (empty folder)" and g["set_A", "fay"]["score"] == ""
    assert g["set_A", "gus"]["status"] == "not submitted (found set_A (1).ipynb)" and g["set_A", "gus"]["score"] == ""
    assert g["set_A", "ian"]["status"] == "not submitted (wrong notebook: set_C's notebook)"
    assert g["set_A", "ian"]["score"] == "" and g["set_A", "ian"]["key_points"] == ""
    assert g["set_B", "ada"]["status"] == "not submitted"
    assert g["set_C", "ada"]["key_points"] == "0.0" and g["set_C", "ada"]["written"] == "4.0"
    assert g["set_C", "ada"]["written_to_grade"] == "1"  # her C2, which nobody graded: not a graded 0
    assert g["set_C", "bo"]["written"] == "0.0" and g["set_C", "bo"]["written_to_grade"] == "0"  # no response


def verdicts(nb, ex_id: str) -> dict[str, tuple[str, str]]:
    out = {}
    for c in nb.cells:
        gid = c.metadata.get("nbgrader", {}).get("grade_id", "")
        if gid.startswith(ex_id + "__") and c.cell_type == "code" and not gid.endswith("__answer"):
            out[gid.split("__")[1]] = (c.outputs[0]["name"], c.outputs[0]["text"])
    return out


def test_what_each_failure_says(klass):
    cy = verdicts(klass.notebook("autograded", "set_A", "cy"), "A3")
    assert all(name == "stderr" and "timed out" in text for name, text in cy.values())
    di = verdicts(klass.notebook("autograded", "set_A", "di"), "A2")
    assert all("SyntaxError" in text and "A2 answer cell" in text and "line 2" in text for _, text in di.values())
    bo = klass.notebook("autograded", "set_A", "bo")
    assert verdicts(bo, "A2")["slice_shape"] == ("stdout", "A2 · slice_shape: passed\n")  # restored
    for name, text in verdicts(bo, "A3").values():
        if name == "stderr":  # what was checked, on which input, what came back, where to re-read; no expected
            assert "got:" in text and "checks:" in text and "re-read:" in text
            assert "expected" not in text and "hint:" not in text


@pytest.mark.skipif(not ROOTED, reason="the sandbox's walls need root")
def test_the_cheater_changes_nothing(klass):
    check, gradebook = klass.eve_targets
    assert sha(check) == klass.eve_before[str(check)] and b"# eve" not in gradebook.read_bytes()
    assert not klass.eve_marker.exists()  # nothing of hers ran outside the sandbox
    eve = verdicts(klass.notebook("autograded", "set_A", "eve"), "A3")
    assert all(name == "stderr" for name, _ in eve.values())  # her forged outputs and edited cell count for nothing
    assert grades(klass)["set_A", "eve"]["key_points"] == "0.0" and grades(klass)["set_A", "zed"]["key_points"] == "0.0"
    # The one checksum warning of the run is her edited test cell: honest notebooks raise none.
    warnings = [line for line in klass.first_autograde.splitlines() if "has changed" in line]
    assert len(warnings) == 1 and "A3__matches_numpy" in warnings[0]


def test_resubmission_grades_only_the_changed_answer(klass):
    log = klass.logs["autograde (resubmission)"]
    lines = [line for line in log.splitlines() if " set_A: " in line]
    assert len(lines) == 1 and lines[0].split("] ", 1)[1].startswith("hal set_A: graded now: A3 3/3")
    assert "unchanged since the last autograde: A2 5/5" in lines[0]
    # --force re-runs nbgrader for bo, but none of his answers changed: nothing is graded again
    klass.nbgrader("autograde --force", "autograde", "set_A", "--student", "bo", "--force")
    forced = klass.logs["autograde --force"]
    line = next(line for line in forced.splitlines() if " set_A: " in line)
    assert "bo set_A: nothing graded now; unchanged since the last autograde: A2 5/5, A3 1/3" in line, line
    # make grade on hal's answers reuses the classroom's verdicts: the same fingerprints
    answers = klass.course / ".grader" / "answers" / "set_A" / "hal"
    out = klass.grader(
        "make grade",
        "grade",
        "--target",
        str(answers),
        "--only",
        "A2,A3",
        "--json",
        "",
        "--html",
        "",
        cwd=klass.project,
    ).stdout
    assert out.count("(unchanged)") == 2, out


def test_missing_work_and_mastery(klass):
    rows = {r["student"]: r for r in csv.DictReader((klass.course / "mastery.csv").open())}
    assert set(rows) == {"ada", "bo", "cy", "di", "fay", "gus", "hal", "ian", "zed"} | ({"eve"} if ROOTED else set())
    assert list(rows["ada"])[:10] == ["student", "level", "pass_line", "next_level_needs", *catalog.SETS]
    n_a = sum(ex.set == "A" for ex in catalog.CATALOG)
    assert {s: rows[s]["A"] for s in ("ada", "bo", "cy", "di", "hal", "zed")} == {
        "ada": f"2/{n_a}",
        "bo": f"1/{n_a}",
        "cy": f"1/{n_a}",
        "di": f"0/{n_a}",
        "hal": f"2/{n_a}",
        "zed": f"0/{n_a}",
    }
    assert rows["fay"]["A"] == "not submitted (empty folder)"
    assert rows["gus"]["A"] == "not submitted (found set_A (1).ipynb)"
    assert rows["ian"]["A"] == "not submitted (wrong notebook: set_C's notebook)"
    assert rows["ada"]["R"] == "not submitted" and rows["ada"]["level"] == "none"
    assert rows["ada"]["next_level_needs"].startswith("R: 0/12")
    assert rows["ada"]["written_C1"] == "4/7" and rows["bo"]["written_C1"] == "no response"
    assert rows["ada"]["written_C2"] == "to grade"  # nbgrader's score is 0.0 for it: never "0/N"
    assert rows["ada"]["C1"] == "0/5" and rows["ada"]["C"] == "0/7"  # written points never count
    detail = {r["student"]: r for r in json.loads((klass.course / "mastery.json").read_text())}
    assert detail["gus"]["status"]["A"] == {"state": "not submitted", "note": "found set_A (1).ipynb"}


def test_the_wrong_notebook_is_not_submitted_not_an_error(klass):
    """Set C's notebook saved as set_A.ipynb: nbgrader's OverwriteCells would fail on it; it is
    recorded as not submitted (grades and mastery above), nothing of it is graded, and the
    student's feedback says why."""
    log = klass.first_autograde
    assert "There was an error processing" not in log and "Traceback" not in log, log[-3000:]
    assert "ian set_A: set_A.ipynb is set_C's notebook, not set_A's: recorded as not submitted" in log
    graded = klass.notebook("autograded", "set_A", "ian")
    assert graded.cells[0].source.startswith("**Not graded: this is not set_A's notebook.**")
    assert not any(c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("C") for c in graded.cells)
    page = (klass.course / "feedback" / "ian" / "set_A" / "set_A.html").read_text()
    assert "Not graded: this is not set_A" in page


def test_feedback_and_rubrics(klass):
    autograded = klass.notebook("autograded", "set_C", "ada")
    written = [
        i for i, c in enumerate(autograded.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == "C1__written"
    ]
    rubric = autograded.cells[written[0] + 1].source  # what formgrader shows under the answer
    assert "Rubric for C1" in rubric and all(kp.reread in rubric for kp in catalog.get("C1").key_points)
    page = (klass.course / "feedback" / "ada" / "set_C" / "set_C.html").read_text()
    assert "Rubric for C1" not in page
    page = (klass.course / "feedback" / "bo" / "set_A" / "set_A.html").read_text()
    assert "re-read:" in page and "expected:" not in page and "hint:" not in page
    assert "Grade cell:" not in page and "Key point:" in page  # our template, not nbgrader's
    assert "not recognized" not in klass.logs["generate_feedback"] + klass.logs["generate_feedback C"]


def test_the_feedback_steps_take_the_exporters_config_quietly(caplog):
    """generate_feedback's preprocessors get the HTML exporter's default config (``NbConvertBase.
    display_data_priority``); nbgrader's own ClearHiddenTests warns that it does not recognize it,
    ours (the ones nbgrader_config.py names) take it."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.preprocessors import ClearHiddenTests

    from grader.classroom import pipeline

    config = HTMLExporter().default_config
    with caplog.at_level("WARNING"):
        ClearHiddenTests(config=config)
    assert "display_data_priority" in caplog.text  # what the instructor saw: the config does reach them
    caplog.clear()
    with caplog.at_level("WARNING"):
        for step in (pipeline.FeedbackClearHiddenTests, pipeline.HideRubrics):
            step(config=config)
    assert "not recognized" not in caplog.text, caplog.text
    assert "pipeline.FeedbackClearHiddenTests" in (ROOT / "grader" / "classroom" / "notebooks.py").read_text()


def test_validate_tells_the_truth(klass):
    nb = klass.course / "submitted" / "bo" / "set_A" / "set_A.ipynb"  # A2 right, A3 partial, the rest untouched
    out = klass.nbgrader("validate", "validate", str(nb), ok=False).stdout
    n_a = sum(len(ex.key_points) for ex in catalog.CATALOG if ex.set == "A")
    assert "Success" not in out and f"VALIDATION FAILED ON {n_a - 5 - 1} CELL(S)" in out
    assert "A3 · matches_numpy failed" in out and "re-read:" in out and "expected:" not in out
    assert "A2 · " not in out and "A3 · different_lengths" not in out  # these pass
    assert "A1 · pipeline_counts failed" in out and "not implemented yet" in out


def test_a_changed_check_stops_autograde(klass):
    check = klass.project / "grader" / "checks" / "test_a3_broadcast.py"
    before = check.read_text()
    graded = klass.course / "autograded" / "ada" / "set_A" / "set_A.ipynb"
    stamp = graded.stat().st_mtime_ns
    check.write_text(before + "\n# edited\n")
    try:
        proc = klass.nbgrader(
            "autograde (changed check)", "autograde", "set_A", "--student", "ada", "--force", ok=False
        )
    finally:
        check.write_text(before)
    assert proc.returncode == 2
    err = proc.stdout + proc.stderr
    assert "autograde stopped" in err and "Nothing was graded" in err
    assert "changed: grader/checks/test_a3_broadcast.py" in err
    assert graded.stat().st_mtime_ns == stamp


# ---------------------------------------------------------------------------- answer cells, one exercise each
@pytest.mark.parametrize("ex", catalog.available(), ids=lambda ex: ex.id)
def test_every_answer_cell_stands_alone(ex):
    """The source answer cell defines every function of the stub and imports no other exercise's module."""
    import ast

    from grader import classroom

    tree = ast.parse(classroom.answer_source(ex))
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    stub = ast.parse((ROOT / "exercises" / f"{ex.module}.py").read_text())
    assert {n.name for n in stub.body if isinstance(n, ast.FunctionDef)} <= defined
    imported = {
        n.module.removeprefix("solutions.") for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert not imported & set(catalog.BY_MODULE), imported


@pytest.mark.parametrize("ex", [catalog.get("C5")], ids=["C5"])
def test_c5_answer_cell_passes_on_its_own(ex, tmp_path):
    """C5's reference reuses P2's loop; its answer cell carries P2's functions and passes alone."""
    from grader import classroom
    from grader.engine import runner

    path = tmp_path / f"{ex.module}.py"
    path.write_text(classroom.answer_source(ex) + "\nANSWERED_BY = 'the source notebook'\n")
    res = runner.grade_exercise(ex, path)
    assert [k.status for k in res.key_points] == ["passed"] * len(ex.key_points), res


def test_autograde_refuses_a_pipeline_that_executes_notebooks():
    """Should Execute come back into the autograde pipeline, grading stops before any student code runs."""
    from nbconvert.exporters import NotebookExporter
    from nbgrader.preprocessors import Execute

    from grader.classroom import pipeline

    exporter = NotebookExporter()
    for pp in (Execute, pipeline.GradeAnswerCells):
        exporter.register_preprocessor(pp, enabled=True)
    step = exporter._preprocessors[-1]
    with pytest.raises(RuntimeError, match="outside the sandbox"):
        step.preprocess(nbformat.v4.new_notebook(), {"nbgrader": {"student": "s", "assignment": "set_A"}})


def test_the_first_cell_shows_the_sets_own_answer_line():
    """The intro's example of an answer cell's first line is the set's own first exercise's (set R
    has only R: an "A3" there sent a learner looking for a cell that is not in the notebook)."""
    from grader import classroom

    for set_id in catalog.SETS:
        exs = [ex for ex in catalog.CATALOG if ex.set == set_id and ex.available]
        if exs:
            intro = classroom.notebook(set_id, exs).cells[0].source
            assert f"`# {exs[0].id} answer ...`" in intro, (set_id, intro)
            assert all(f"# {ex.id} answer" not in intro for ex in catalog.CATALOG if ex.set != set_id)


def test_a_test_cell_without_the_grader_says_how_to_check(tmp_path):
    """A student with only the released notebook (a class JupyterHub): each test cell prints, to
    stderr (Validate lists it as failing), that it was not checked and where the notebook says
    how to check one's work; no ModuleNotFoundError traceback. Run by a Python without the project
    on its path (-I -S: no PYTHONPATH, no site-packages), as that kernel would."""
    from grader import classroom

    ex = catalog.get("A3")
    nb = classroom.notebook("A", [ex])
    intro = nb.cells[0].source
    assert "How to check your work" in intro and "*not checked*" in intro and "submitting" in intro
    tests = [c for c in nb.cells if c.metadata["nbgrader"].get("grade")]
    assert len(tests) == len(ex.key_points)
    for c, kp in zip(tests, ex.key_points, strict=True):
        proc = subprocess.run(
            [sys.executable, "-I", "-S", "-c", c.source], cwd=tmp_path, capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 0 and proc.stdout == "", proc.stderr
        assert proc.stderr.startswith(f"A3 · {kp.id}: not checked: this Jupyter does not have the course grader")
        assert '"How to check your work" in the first cell' in proc.stderr and "Traceback" not in proc.stderr


def test_check_notebook_takes_what_would_trip_nbgrader(tmp_path):
    """pipeline.CheckNotebook, without nbgrader: set B's notebook as set_A.ipynb is recorded as the
    wrong notebook (until that file changes) and the release stands in; set B's cells pasted into
    set A's notebook become plain cells."""
    from traitlets.config import Config

    from grader import classroom
    from grader.classroom import pipeline, roster

    a, b = classroom.notebook("A", [catalog.get("A3")]), classroom.notebook("B", [catalog.get("B1")])
    for kept in ("source", "release"):  # a course has both; the source names the cells it knows
        (tmp_path / kept / "set_A").mkdir(parents=True)
        nbformat.write(a, tmp_path / kept / "set_A" / "set_A.ipynb")
    submitted = roster.submitted_notebook(tmp_path, "set_A", "ian")
    submitted.parent.mkdir(parents=True)
    nbformat.write(b, submitted)
    config = Config({"CourseDirectory": {"root": str(tmp_path)}})
    resources = {"nbgrader": {"assignment": "set_A", "student": "ian", "notebook": "set_A"}}
    step = pipeline.CheckNotebook(config=config)
    out, _ = step.preprocess(nbformat.from_dict(b), resources)
    assert out.cells[0].source.startswith("**Not graded: this is not set_A's notebook.**")
    assert pipeline.sets_of(out) == {"A"} and len(out.cells) == len(a.cells) + 1
    assert roster.wrong_notebook(tmp_path, "set_A", "ian") == "set_B's notebook"
    mixed = nbformat.from_dict(a)
    mixed.cells += b.cells[1:4]
    nbformat.write(mixed, submitted)  # resubmitted: the record is of the other file
    assert roster.wrong_notebook(tmp_path, "set_A", "ian") is None
    out, _ = step.preprocess(mixed, resources)
    assert pipeline.sets_of(out) == {"A"} and len(out.cells) == len(mixed.cells)


def test_check_notebook_tells_the_student_in_the_builds_language(tmp_path, speak):
    """The notes CheckNotebook puts in the student's notebook (the wrong notebook, a pasted copy of a
    cell) speak the language the course was built in (nbgrader_config.py's i18n.use), as every verdict does."""
    from traitlets.config import Config

    from grader import classroom
    from grader.classroom import pipeline

    a, b = classroom.notebook("A", [catalog.get("A3")]), classroom.notebook("B", [catalog.get("B1")])
    for kept in ("source", "release"):
        (tmp_path / kept / "set_A").mkdir(parents=True)
        nbformat.write(a, tmp_path / kept / "set_A" / "set_A.ipynb")
    step = pipeline.CheckNotebook(config=Config({"CourseDirectory": {"root": str(tmp_path)}}))
    resources = {"nbgrader": {"assignment": "set_A", "student": "ian", "notebook": "set_A"}}
    pasted = nbformat.from_dict(a)
    answer = next(c for c in pasted.cells if pipeline._meta(c).get("grade_id") == "A3__answer")
    pasted.cells.append(nbformat.from_dict(answer))
    for lang, wrong, copy in (
        ("zh", "未批改：这不是 set_A 的 notebook", "第二份"),
        ("en", "**Not graded: this is not set_A's notebook.**", "second copy of `A3__answer`"),
    ):
        speak(lang)
        out, _ = step.preprocess(nbformat.from_dict(b), resources)
        assert wrong in out.cells[0].source and "set_B" in out.cells[0].source, out.cells[0].source
        out, _ = step.preprocess(nbformat.from_dict(pasted), resources)
        notes = [c.source for c in out.cells if c.cell_type == "markdown" and "A3__answer" in c.source]
        assert len(notes) == 1 and copy in notes[0], notes


def test_validate_waits_per_set_from_the_catalog():
    from grader.classroom import notebooks, pipeline

    timeouts = notebooks.set_timeouts()
    for set_id, limit in timeouts.items():
        assert limit == max(ex.timeout_s for ex in catalog.available() if ex.set == set_id) + notebooks.TIMEOUT_MARGIN_S
    wait = pipeline.SetTimeouts(timeouts)
    cells = [
        nbformat.v4.new_code_cell(metadata={"nbgrader": {"grade_id": "A3__answer"}}),
        nbformat.v4.new_code_cell(),  # a cell the student added: its set's limit too
        nbformat.v4.new_code_cell(metadata={"nbgrader": {"grade_id": "P4__answers_and_stops"}}),
    ]
    assert [wait(c) for c in cells] == [timeouts["A"], timeouts["A"], timeouts["P"]]


def test_class_analytics_read_the_same_class(klass):
    klass.grader(
        "analytics",
        "classroom",
        "analytics",
        str(klass.course),
        "--out",
        str(klass.course / "report"),
        cwd=klass.project,
    )
    with (klass.course / "report" / "keypoints.csv").open() as f:
        rows = {(r["exercise"], r["key_point"]): r for r in csv.DictReader(f)}
    assert ("A3", "different_lengths") in rows and ("A2", "slice_shape") in rows


def test_a_key_point_not_verifiable_here_is_no_point_and_no_failure_to_fix():
    """As in make grade: never passed silently (no point in the notebook, left out of the level),
    and Validate does not list it as a failure (the student has nothing to fix)."""
    from grader.classroom import notebooks
    from grader.engine.results import ExerciseResult, KeyPointResult

    ex = catalog.get("P3")
    res = ExerciseResult(
        ex.id,
        "graded",
        [
            KeyPointResult(
                kp.id, "not_verifiable" if kp.needs_gpu else "passed", "needs a CUDA GPU" if kp.needs_gpu else ""
            )
            for kp in ex.key_points
        ],
    )
    gpu = next(kp.id for kp in ex.key_points if kp.needs_gpu)
    state, text = notebooks.verdict(ex, res, gpu)
    assert state == "not_verifiable" and "not verifiable here" in text and "left out of your level" in text


def test_classroom_build_speaks_the_language_asked(tmp_path, speak):
    """`grader classroom build --lang zh`: the first cell, the question (the stub's Chinese half),
    the answer cell's note and the test cells in Chinese, the test cells and nbgrader_config.py
    naming the language, so that the kernel's and autograde's verdicts speak it too; --lang en:
    English, no Chinese half."""
    from grader import cli

    speak("en")
    for lang, intro, question, absent in (
        ("zh", "怎样检查你的作业", "课程问（第七篇", "The course asks"),
        ("en", "How to check your work", "The course asks (第七篇", "课程问"),
    ):
        course = tmp_path / lang
        assert cli.main(["classroom", "build", str(course), "--only", "A5", "--lang", lang]) == 0
        nb = nbformat.read(course / "source" / "set_A" / "set_A.ipynb", as_version=4)
        assert intro in nb.cells[0].source and "`# A5 answer ...`" in nb.cells[0].source  # its own first one
        q = cell(nb, "A5__question").source
        assert question in q and absent not in q and "\nEnglish\n-------" not in q
        answer = cell(nb, "A5__answer").source  # its docstrings in that language only
        assert "English" not in answer and (lang == "zh") == ("参数：" in answer), answer
        tests = [c.source for c in nb.cells if c.metadata["nbgrader"].get("grade")]
        assert tests and all(f"lang={lang!r}" in t for t in tests)
        assert (lang == "zh") == ("未检查" in tests[0])
        assert f"i18n.use({lang!r})" in (course / "nbgrader_config.py").read_text()


def test_a_verdict_speaks_the_current_language(speak):
    from grader.classroom import notebooks

    ex = catalog.get("A5")
    result = notebooks.untouched_result(ex)
    speak("zh")
    state, text = notebooks.verdict(ex, result, "no_such_key_point")
    assert state == "failed" and text.startswith("A5 · no_such_key_point：未批改（")
    speak("en")
    assert notebooks.verdict(ex, result, "no_such_key_point")[1].startswith("A5 · no_such_key_point: not graded (")


def test_a_pasted_copy_or_a_broken_notebook_never_stops_the_class(tmp_path):
    """Real nbgrader, nothing run (every answer cell as released): a second copy of an answer cell
    (Jupyter's Copy + Paste keeps its grade_id), a test cell of an id the notebook lacks and one
    with none become plain cells under a note to the student, the first copy graded (nbgrader's
    own DeduplicateIds keeps the last, then fails: KeyError 'grade_id'); a notebook that is not
    JSON is 'not graded (autograde failed)' and the class's autograde still exits 0."""
    import copy

    k = Class(tmp_path)
    k.grader("build", "classroom", "build", str(k.course), "--only", "A2", "--lang", "en", cwd=k.project)
    k.nbgrader("generate_assignment", "generate_assignment", "set_A")
    release, source = k.notebook("release", "set_A"), k.notebook("source", "set_A")
    pasted = nbformat.from_dict(release)
    at = pasted.cells.index(cell(pasted, "A2__answer"))
    second = copy.deepcopy(pasted.cells[at])
    second.id, second.source = "pasted", cell(source, "A2__answer").source + "\nANSWERED_BY = 'dup'\n"
    pasted.cells.insert(at + 1, second)
    for n, gid in enumerate(("A2__made_up", None)):
        extra = copy.deepcopy(cell(pasted, "A2__slice_shape"))
        extra.id, extra.metadata.nbgrader["grade_id"] = f"extra{n}", gid
        if gid is None:
            del extra.metadata.nbgrader["grade_id"]
        pasted.cells.append(extra)
    k.submit("dup", "set_A", pasted)
    k.submit("bad", "set_A")
    (k.course / "submitted" / "bad" / "set_A" / "set_A.ipynb").write_text('{"cells": [')  # a cut-short upload
    k.submit("zed", "set_A", release)
    k.nbgrader("autograde", "autograde", "set_A")  # exits 0: asserted by run()
    log = k.logs["autograde"]
    assert "dup set_A: cell A2__answer is a second copy: kept as a plain cell" in log
    assert "dup set_A: nothing graded now; left as released (not run): A2" in log  # the first copy
    assert "zed set_A: nothing graded now" in log and "KeyError" not in log
    graded = k.notebook("autograded", "set_A", "dup")
    notes = [c.source for c in graded.cells if c.cell_type == "markdown" and c.source.startswith("**Not graded")]
    assert len(notes) == 3 and "second copy of `A2__answer`" in notes[0] and "`A2__made_up`" in notes[1]
    k.nbgrader("export", "export")
    g = grades(k)
    assert g["set_A", "bad"]["status"] == "not graded (autograde failed, see its log)"
    assert g["set_A", "dup"]["status"] == "graded" and g["set_A", "zed"]["status"] == "graded"


def test_a_course_built_inside_a_project_stays_out_of_its_git_and_its_lint(tmp_path, speak):
    """docs/classroom.md builds the course in the project folder: its notebooks, nbgrader_config.py
    and later the students' work and gradebook were shown by git status and failed make lint."""
    import subprocess

    from grader import cli

    speak("en")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert cli.main(["classroom", "build", str(tmp_path / "course"), "--only", "A5"]) == 0
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=tmp_path, capture_output=True, text=True
    )
    assert status.returncode == 0 and status.stdout == "", status.stdout


def feedback_page(lang: str) -> str:
    """A feedback page as generate_feedback renders it with the course's config (its template dirs
    and our words step; nbgrader's own bootstrap path), for a notebook of a test cell, an answer and a
    written answer with a comment."""
    import nbgrader
    from nbconvert.exporters import HTMLExporter
    from traitlets.config import Config

    from grader import i18n
    from grader.classroom import pipeline

    i18n.use(lang)
    meta = {"grade": True, "solution": False, "grade_id": "A3__matches_numpy", "points": 1, "score": 1.0}
    written = {"grade": True, "solution": True, "grade_id": "C1__written", "points": 7, "score": 4.0, "comment": "ok"}
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("pass", metadata={"nbgrader": meta}),
        nbformat.v4.new_code_cell("# A3 answer", metadata={"nbgrader": {"solution": True, "grade_id": "A3__answer"}}),
        nbformat.v4.new_markdown_cell("...", metadata={"nbgrader": written}),
    ]
    c = Config()
    c.HTMLExporter.template_name = "feedback"  # as nbgrader's GenerateFeedback and formgrader's API ask
    c.HTMLExporter.extra_template_basedirs = pipeline.feedback_template_dirs()
    css = Path(nbgrader.__file__).parent / "server_extensions/formgrader/static/node_modules/bootstrap/dist/css"
    c.HTMLExporter.extra_template_paths = [str(css)]
    exporter = HTMLExporter(config=c)
    exporter.register_preprocessor(pipeline.FeedbackWords(config=c), enabled=True)
    resources = {"nbgrader": {"notebook": "set_A", "score": 5.0, "max_score": 8.0, "late_penalty": 0}}
    try:
        return exporter.from_notebook_node(nb, resources=resources)[0]
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_feedback_page_speaks_the_courses_language(lang):
    """nbgrader's feedback template wrote "Grade cell:", "Score: 1.0 / 1.0", "(Top)" to a zh student
    32 times a notebook; ours takes its words from the catalog, nbgrader's layout kept."""
    from grader.i18n import lookup

    page = feedback_page(lang)
    for english in ("Grade cell", "Test cell", "Student's answer", "(Top)"):
        assert english not in page
    assert "A3__matches_numpy" in page and "panel-heading" in page and "bootstrap" in page.lower()
    score = lookup("Score: {score} / {max}", lang).format(score=1.0, max=1.0)
    assert score in page and lookup("Comments", lang) in page
    if lang == "zh":
        assert "Score:" not in page and '<html lang="zh-CN">' in page


def test_the_course_config_finds_formgraders_own_templates():
    """The template dirs the course sets for every HTMLExporter keep formgrader's "formgrade" template."""
    from grader.classroom import pipeline

    assert any((Path(d) / "formgrade").is_dir() for d in pipeline.feedback_template_dirs())
    assert (Path(pipeline.feedback_template_dirs()[0]) / "feedback" / "index.html.j2").is_file()
