"""Class analytics: pass rates per key point, named misconceptions, levels, from job results and
from an nbgrader gradebook; the CSVs and the HTML page (no grading here: results are made up)."""

from __future__ import annotations

import csv
import shutil
import subprocess

import pytest

from grader.classroom import analytics, notebooks
from grader.course import catalog
from grader.course.catalog import ROOT

A3 = catalog.get("A3")
KPS = [kp.id for kp in A3.key_points]
MISTAKE = "your result is what you get if you align shapes from the left"


def job(student: str, statuses: list[str], misconception: str = "") -> dict:
    kps = [
        {
            "key_point": k,
            "status": s,
            "message": "",
            "hint": "",
            **({"misconception": misconception} if s == "failed" and misconception else {}),
        }
        for k, s in zip(KPS, statuses, strict=True)
    ]
    return {
        "submission": f"/class/{student}",
        "student": student,
        "exercise": "A3",
        "result": {"exercise": "A3", "status": "graded", "key_points": kps, "duration_s": 1.0, "note": ""},
    }


def class_results() -> list[dict]:
    return [
        job("alice", ["passed"] * len(KPS)),
        job("bob", ["failed", "failed"] + ["passed"] * (len(KPS) - 2), MISTAKE),
        job("carol", ["failed", "passed"] + ["not_verifiable"] * (len(KPS) - 2), MISTAKE),
        {
            "submission": "/class/dave",
            "student": "dave",
            "exercise": "A3",  # handed in nothing
            "result": {
                "exercise": "A3",
                "status": "missing",
                "duration_s": 0.0,
                "note": "",
                "key_points": [{"key_point": k, "status": "missing", "message": "not found"} for k in KPS],
            },
        },
    ]


def test_pass_rates_misconceptions_levels_from_jobs(tmp_path):
    report = analytics.from_jobs(class_results(), "class/")
    rows = {r["key_point"]: r for r in report.key_points}
    assert set(rows) == set(KPS) and report.students == ["alice", "bob", "carol", "dave"]
    first, second = rows[KPS[0]], rows[KPS[1]]
    assert (first["passed"], first["students"], first["pass_rate"]) == (1, 4, 0.25)
    assert first["most_frequent_failure"] == "wrong answer (2)"
    assert (second["passed"], second["students"]) == (2, 4)
    if len(KPS) > 2:  # carol's not-verifiable key points are left out, as in her own counts
        assert rows[KPS[2]]["students"] == 3 and rows[KPS[2]]["not_verifiable"] == 1
    top = report.misconceptions[0]
    assert (top["key_point"], top["misconception"], top["students"]) == (KPS[0], MISTAKE, 2)
    assert top["share_of_failures"] == round(2 / 3, 4)  # dave's missing file is the third failure
    levels = {r["level"]: r["students"] for r in report.levels}
    assert sum(levels[lv] for lv in ("none", "read", "mastered", "can-teach")) == 4
    assert levels["pass line met"] == 0

    page = analytics.write(report, tmp_path / "report")
    html = page.read_text()
    assert html.count("data:image/png;base64,") == 3  # levels, parts, hardest key points
    assert MISTAKE in html and "<script" not in html
    with (tmp_path / "report" / "keypoints.csv").open() as f:
        got = {r["key_point"]: r for r in csv.DictReader(f)}
    assert got[KPS[0]]["pass_rate"] == "0.25"
    with (tmp_path / "report" / "misconceptions.csv").open() as f:
        assert next(csv.DictReader(f))["students"] == "2"


def test_from_gradebook_reads_outcomes_and_recorded_misconceptions(tmp_path, monkeypatch):
    """Misconceptions come from the results autograde recorded, not from the students' verdicts
    (those leave named mistakes out: one can state the expected value)."""
    from grader.classroom import roster
    from grader.engine.results import ExerciseResult, KeyPointResult

    outcomes = {"alice": ({"A3": {k: True for k in KPS}}, {}), "bob": ({"A3": {KPS[0]: False}}, {})}
    monkeypatch.setattr(notebooks, "gradebook_outcomes", lambda course: outcomes)
    roster.save_results(
        tmp_path,
        "set_A",
        "bob",
        {
            "A3": ExerciseResult(
                "A3", "graded", [KeyPointResult(KPS[0], "failed", "x", hint=MISTAKE, misconception=MISTAKE)]
            )
        },
    )
    report = analytics.from_gradebook(tmp_path)
    rows = {r["key_point"]: r for r in report.key_points}
    assert rows[KPS[0]]["pass_rate"] == 0.5 and rows[KPS[1]]["passed"] == 1  # bob has no grade for it
    assert report.misconceptions[0]["misconception"] == MISTAKE and report.misconceptions[0]["students"] == 1
    assert {r["level"]: r["students"] for r in report.levels}["none"] == 2


def test_class_report_renders_in_headless_chromium(tmp_path):
    """The page as a browser draws it (scripts/check_report_renders.sh: Debian's chromium, offline)."""
    if shutil.which("chromium") is None:
        pytest.skip("headless Chromium is not installed here (scripts/check_report_renders.sh installs it)")
    page = analytics.write(analytics.from_jobs(class_results(), "class/"), tmp_path / "report")
    png = tmp_path / "report.png"
    subprocess.run(
        ["bash", str(ROOT / "scripts" / "check_report_renders.sh"), str(page), str(png)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000  # a drawn page, not a blank one
