"""An untouched stub is "not implemented" without being run, the same in every mode
(grader.engine.stubs; issues 30 and 28), and a stub with any change to its code is graded for real.

tests/test_check_validity.py still grades every stub for real (runner.grade_exercise, which has no
such shortcut): that is what makes the verdict given here without running certain."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest

from grader import cli, i18n
from grader.classroom import batch, gradescope, notebooks
from grader.course import catalog, stub_docs
from grader.course.catalog import ROOT
from grader.engine import runner, stubs
from grader.isolation import sandbox

A3 = catalog.get("A3")
STUB = (ROOT / "exercises" / f"{A3.module}.py").read_text()
AVAILABLE = [ex for ex in catalog.CATALOG if ex.available]


def test_the_recorded_trees_are_the_stubs_in_exercises():
    recorded = (ROOT / "grader" / "course" / "released_stubs.py").read_text()
    assert recorded == stubs.render_released(), "run `make stubs`"


@pytest.mark.parametrize("ex", AVAILABLE, ids=[ex.id for ex in AVAILABLE])
def test_every_stub_as_released_is_untouched(ex):
    assert stubs.untouched(ex, ROOT / "exercises" / f"{ex.module}.py")


def _one_language(src: str, lang: str) -> str:
    """The stub with each docstring in one language, as a notebook's answer cell is released."""
    lines = src.splitlines()
    for doc in reversed(stub_docs.docstrings(src)):
        text = stub_docs.half(doc.text, lang).replace("\n", "\n" + doc.indent)
        lines[doc.start - 1 : doc.end] = [f'{doc.indent}{doc.prefix}"""{text}\n{doc.indent}"""']
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: _one_language(s, "zh"),
        lambda s: _one_language(s, "en"),
        lambda s: "# A3 answer\n# my notes\n" + s.replace("\n\n\n", "\n\n\n# still to do\n") + "\n\n",
    ],
    ids=["zh-docstrings", "en-docstrings", "comments-and-blank-lines"],
)
def test_docstrings_comments_and_layout_do_not_count(edit):
    changed = edit(STUB)
    assert changed != STUB and stubs.is_release_stub(changed, A3)


CHANGES = {
    "answered": lambda s: s.replace('raise NotImplementedError("A3: broadcast_shape")', "return ()"),
    "body-changed": lambda s: s.replace('raise NotImplementedError("A3: broadcast_shape")', 'raise ValueError("A3")'),
    "message-changed": lambda s: s.replace('NotImplementedError("A3: broadcast_shape")', 'NotImplementedError("A3")'),
    "import-added": lambda s: "import antigravity\n" + s,
    "top-level-statement": lambda s: s + "\nprint('ran')\n",
    "constant-added": lambda s: s + "\nANSWERED_BY = 'me'\n",
    "does-not-parse": lambda s: s + "\ndef broken(:\n",
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES)
def test_any_change_to_the_code_is_not_the_stub(change, tmp_path):
    changed = change(STUB)
    assert changed != STUB and not stubs.is_release_stub(changed, A3)
    (tmp_path / f"{A3.module}.py").write_text(changed)
    assert not stubs.untouched(A3, tmp_path / f"{A3.module}.py")


def test_a_stub_beside_a_module_of_the_learners_is_run(tmp_path):
    """A library the stub imports (or one a library imports) could be the learner's module of its name."""
    (tmp_path / f"{A3.module}.py").write_text(STUB)
    (tmp_path / "a5_first_loss.py").write_text("raise SystemExit\n")  # an exercise's: never imported by a stub
    assert stubs.untouched(A3, tmp_path / f"{A3.module}.py")
    (tmp_path / "numpy.py").write_text("print('mine')\n")
    assert not stubs.untouched(A3, tmp_path / f"{A3.module}.py")


def test_a_link_to_the_stub_is_left_to_the_runner(tmp_path):
    (tmp_path / f"{A3.module}.py").symlink_to(ROOT / "exercises" / f"{A3.module}.py")
    assert not stubs.untouched(A3, tmp_path / f"{A3.module}.py")  # the runner refuses it, with its reason
    assert not stubs.untouched(A3, tmp_path / "missing" / f"{A3.module}.py")


def _submission(tmp_path, source: str):
    sub = tmp_path / "class" / "ann"
    sub.mkdir(parents=True)
    (sub / f"{A3.module}.py").write_text(source)
    return sub


def _make_grade(tmp_path, source):
    sub = _submission(tmp_path, source)
    return runner.grade(sub, only=["A3"], incremental=True)["A3"]


def _batch(tmp_path, source):
    sub = _submission(tmp_path, source)
    return batch.ExerciseResult.from_dict(batch.run_job({"submission": str(sub), "exercise": "A3"})["result"])


def _job_file(tmp_path, source):  # `grader job job.json > result.json`, as a batch queue runs it
    sub = _submission(tmp_path, source)
    job = tmp_path / "job.json"
    job.write_text(json.dumps({"submission": str(sub), "exercise": "A3"}))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["job", str(job)]) == 0
    return batch.ExerciseResult.from_dict(json.loads(out.getvalue())["result"])


def _gradescope(tmp_path, source):
    sub = _submission(tmp_path, source)
    return gradescope.grade_submission(sub, ["A3"], jobs=1)["A3"]


def _kernel(tmp_path, source):  # the classroom: a test cell run in the student's kernel
    notebooks._graded.clear()
    state, text = notebooks.kernel_verdict(
        "A3", A3.key_points[0].id, [notebooks.ANSWER_MARK.format(id="A3") + "\n" + source]
    )
    return state, text


MODES = {"make grade": _make_grade, "batch": _batch, "job": _job_file, "gradescope": _gradescope}


@pytest.fixture
def others_work(monkeypatch, tmp_path):
    """The class modes require a wall from the first job on: set here, so that it ends with the test."""
    monkeypatch.setenv(sandbox.UNTRUSTED, "1")
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("grader.engine.cache.CACHE_DIR", tmp_path / "cache")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("mode", MODES.values(), ids=MODES)
def test_an_untouched_stub_is_not_run_and_every_mode_says_the_same(mode, lang, tmp_path, monkeypatch, others_work):
    def never(*args, **kwargs):
        raise AssertionError("an untouched stub was run")

    monkeypatch.setattr(runner, "grade_exercise", never)
    monkeypatch.setattr(runner, "warm_up", never)
    res = mode(tmp_path, "# my first look at it\n" + STUB)
    expected = stubs.untouched_result(A3)
    assert res.status == "graded" and [(k.key_point, k.status) for k in res.key_points] == [
        (kp.id, "not_implemented") for kp in A3.key_points
    ]
    i18n.use(lang)
    try:
        assert {i18n.show(k.message) for k in res.key_points} == {i18n.show(expected.key_points[0].message)}
        said = i18n.show(res.key_points[0].message)
        assert ("未作改动" in said) if lang == "zh" else ("unchanged from the stub as released" in said)
    finally:
        i18n.use("en")


def test_the_classroom_says_the_same(monkeypatch):
    monkeypatch.setattr(runner, "grade_exercise", lambda *a, **k: pytest.fail("an untouched stub was run"))
    state, text = _kernel(None, STUB)
    assert state == "failed" and i18n.show(stubs.untouched_result(A3).key_points[0].message) in text
    assert "not implemented yet" in text


def test_make_grade_records_an_untouched_stub_like_a_graded_one(tmp_path, monkeypatch, others_work):
    monkeypatch.setattr(runner, "grade_exercise", lambda *a, **k: pytest.fail("an untouched stub was run"))
    sub = _submission(tmp_path, STUB)
    first = runner.grade(sub, only=["A3"], incremental=True)["A3"]
    again = runner.grade(sub, only=["A3"], incremental=True)["A3"]
    assert not first.cached and again.cached and again.key_points == first.key_points
    assert runner.grade(sub, only=["A5"], incremental=True)["A3"].cached  # shown, outside --only, as earlier
    fresh = runner.grade(sub, only=["A3"], incremental=True, fresh=True)["A3"]
    assert not fresh.cached and fresh.key_points == first.key_points


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES)
def test_a_stub_whose_only_change_is_a_top_level_statement_runs(mode, tmp_path, others_work):
    """The statement runs at import: it raises here, so the verdict "does not import" proves it ran."""
    res = mode(tmp_path, STUB + '\nraise RuntimeError("this line ran")\n')
    assert {k.status for k in res.key_points} == {"import_error"}, [(k.status, k.message) for k in res.key_points]
    assert any(re.search("this line ran", i18n.show(k.message) + k.traceback) for k in res.key_points)
