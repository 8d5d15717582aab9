"""What a class is, and the language of its CSVs (issue #28): the exercises a class was given (not
the whole catalog) in `grader batch` and in mastery.csv, a --collect with results missing, stubs
as released left out of the copies, every CSV text in the language asked. Nothing is graded here."""

from __future__ import annotations

import csv
import json

from grader import cli, i18n
from grader.classroom import analytics, batch, notebooks, roster
from grader.course import catalog, levels
from grader.course.catalog import ROOT
from grader.engine import runner
from tests.conftest import own_answer


def make_class(root):
    (root / "alice").mkdir(parents=True)
    own_answer(ROOT / "solutions/a3_broadcast.py", root / "alice" / "a3_broadcast.py", "alice")
    (root / "bob").mkdir()
    (root / "bob" / "a3_broadcast.py").write_text((ROOT / "exercises/a3_broadcast.py").read_text())
    (root / "carol").mkdir()
    own_answer(ROOT / "solutions/a2_nbytes_index.py", root / "carol" / "a2_nbytes_index.py", "carol")
    (root / "dave").mkdir()  # nothing
    return root


def test_a_batch_class_is_the_exercises_submitted(tmp_path):
    """`grader batch submissions/` graded all 33 exercises of the catalog for each student."""
    klass = make_class(tmp_path / "class")
    subs = batch.submissions_in(klass)
    assert batch.submitted_exercises(subs) == ["A2", "A3"]
    jobs = batch.class_jobs(subs)
    assert sorted({j["exercise"] for j in jobs}) == ["A2", "A3"] and len(jobs) == 2 * 4
    assert {j["exercise"] for j in batch.class_jobs(subs, ["A3"])} == {"A3"}


def fake_result(klass, student: str, ex_id: str) -> dict:
    res = runner.uniform_result(catalog.get(ex_id), "not_implemented", "stub")
    return {"submission": str(klass / student), "student": student, "exercise": ex_id, "result": res.to_dict()}


def test_collect_with_results_missing_names_them_and_writes_nothing(tmp_path, speak):
    """1 of the class's job results present: --collect reported that student only, silently."""
    speak("en")
    klass = make_class(tmp_path / "class")
    results = tmp_path / "results"
    results.mkdir()
    (results / "0.json").write_text(json.dumps(fake_result(klass, "alice", "A3")))
    assert batch.missing_jobs(batch.collect_jobs(results)) == [("bob", "A3"), ("carol", "A3"), ("dave", "A3")]
    out, report = tmp_path / "levels.csv", tmp_path / "report"
    code = cli.main(["batch", "--collect", str(results), "--out", str(out), "--report", str(report)])
    assert code == 1 and not out.exists() and not report.exists()
    for student in ("bob", "carol", "dave"):
        (results / f"{student}.json").write_text(json.dumps(fake_result(klass, student, "A3")))
    assert batch.missing_jobs(batch.collect_jobs(results)) == []


def test_collect_grades_a_job_with_no_output_from_its_job_file(tmp_path, monkeypatch):
    klass = make_class(tmp_path / "class")
    jobs, results = tmp_path / "jobs", tmp_path / "results"
    jobs.mkdir()
    results.mkdir()
    for i, student in enumerate(("alice", "bob")):
        (jobs / f"{i}.json").write_text(json.dumps({"submission": str(klass / student), "exercise": "A3"}))
    (results / "0.json").write_text(json.dumps(fake_result(klass, "alice", "A3")))
    ran = []
    monkeypatch.setattr(batch, "run_job", lambda job: ran.append(job) or fake_result(klass, "bob", "A3"))
    skipped: list[str] = []
    got = batch.collect_jobs(results, jobs, skipped)
    assert {r["student"] for r in got} == {"alice", "bob"} and len(ran) == 1 and (results / "1.json").is_file()
    assert "graded again" in skipped[0]


def test_stubs_as_released_are_left_out_of_the_copies():
    """copies.csv had `bob,A2,reference,0.0,False` for an untouched stub (nbgrader's path leaves it out)."""
    alice = (ROOT / "solutions/a3_broadcast.py").read_bytes() + b"\nANSWERED_BY = 'alice'\n"
    stub = (ROOT / "exercises/a3_broadcast.py").read_bytes()
    rows = analytics.copies({"A3": {"alice": alice, "bob": stub}})
    assert [r["student"] for r in rows] == ["alice"]
    assert analytics.copies({"A3": {"bob": stub}}) == []


def test_mastery_says_not_assigned_for_what_the_gradebook_lacks(monkeypatch, speak):
    """Only C3 in the gradebook: mastery.csv said C1 0/5, C2 0/3 ..., C 0/7."""
    speak("en")
    kps = {kp.id: True for kp in catalog.get("C3").key_points if not kp.followup}
    states = {s: ("not assigned", "") for s in catalog.SETS} | {"C": ("graded", "")}
    monkeypatch.setattr(roster, "student_outcomes", lambda *a: ({"C3": kps}, {"C3": "to grade"}, states))
    row = roster.student_mastery(ROOT, None, "bo", {"set_C"}, assigned={"C3"})["row"]
    assert row["C3"] == "{0}/{0}".format(len(kps)) and row["C"] == "1/1" and row["written_C3"] == "to grade"
    for cid in ("C1", "C2", "C4"):
        assert row[cid] == roster.NOT_ASSIGNED and row[f"written_{cid}"] == roster.NOT_ASSIGNED
    whole = roster.student_mastery(ROOT, None, "bo", {"set_C"}, assigned=None)["row"]
    assert whole["C1"].startswith("0/") and whole["C"].endswith("/7")  # the whole catalog's C, as before


def test_every_csv_text_is_in_the_language_asked(tmp_path, speak, monkeypatch):
    """keypoints.csv's claim and parts.csv's title stayed English under --lang zh, and mastery.csv's
    next_level_needs; the column names and the codes stay fixed."""
    ex = next(
        e for e in catalog.CATALOG if i18n.lookup(catalog.PART_TITLES[e.part], "zh") != catalog.PART_TITLES[e.part]
    )
    records = [{"student": "ann", "exercise": ex.id, "key_point": kp.id, "status": "failed"} for kp in ex.key_points]
    rows = [{"student": "ann", **levels.summarize({}).row()}]
    speak("en")
    report = analytics.build(records, rows, source="x", graded={ex.id})
    speak("zh")
    analytics.write(report, tmp_path)
    with (tmp_path / "keypoints.csv").open(encoding="utf-8") as f:
        first = next(csv.DictReader(f))
    assert first["claim"] == i18n.lookup(ex.key_points[0].claim, "zh") != ex.key_points[0].claim
    assert first["exercise"] == ex.id and first["key_point"] == ex.key_points[0].id
    with (tmp_path / "parts.csv").open(encoding="utf-8") as f:
        part = next(csv.DictReader(f))
    assert part["title"] == i18n.lookup(catalog.PART_TITLES[ex.part], "zh") != catalog.PART_TITLES[ex.part]
    with (tmp_path / "levels.csv").open(encoding="utf-8") as f:
        assert {r["level"] for r in csv.DictReader(f)} == {*levels.LEVELS, analytics.PASS_LINE_MET}  # codes
    states = {s: ("graded", "") for s in catalog.SETS}
    monkeypatch.setattr(roster, "student_outcomes", lambda *a: ({}, {}, states))
    needs = roster.student_mastery(ROOT, None, "bo", {"set_R"})["row"]["next_level_needs"]
    assert any("\u4e00" <= c <= "\u9fff" for c in needs), needs


def test_mastery_and_analytics_speak_the_courses_language(tmp_path, speak):
    """The course's language is the one it was built with, read from its nbgrader_config.py."""
    speak("zh")
    notebooks.build_course(tmp_path / "zh", only=["A5"])
    speak("en")
    assert notebooks.course_language(tmp_path / "zh") == "zh"
    assert notebooks.course_language(tmp_path / "nothing") is None
    speak("en")
    assert cli.main(["classroom", "mastery", str(tmp_path / "zh")]) == 2  # no gradebook yet: said in Chinese
    assert i18n.current() == "zh"


def test_a_hanging_import_is_waited_for_once_per_exercise(tmp_path, monkeypatch):
    """An A2 whose import hangs took 64 s in autograde and batch, each key point "importing your
    module timed out (30 s)": the import limit is paid once (the first job of a class also waits for
    the grader's heavy warm-up, docs/classroom.md); the later key points of the exercise report the
    same timeout without importing again. Counted by import attempts, not by the clock."""
    import pytest

    from grader.isolation import learner as learner_module

    module = tmp_path / "a2_nbytes_index.py"
    module.write_text("import time\ntime.sleep(120)\n")
    starts = []
    start = learner_module.Learner._start
    monkeypatch.setattr(learner_module.Learner, "_start", lambda self: (starts.append(1), start(self))[1])
    handle = learner_module.Learner("a2_nbytes_index", module, import_timeout_s=1.0, require_wall=False)
    try:
        for _kp in range(4):  # one call per key point, each after the key point's reset
            handle.reset()
            with pytest.raises(learner_module.LearnerTimeout):
                handle.nbytes([2, 3], "float32")
    finally:
        handle.close()
    assert len(starts) == 1
