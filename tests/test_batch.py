"""Class batch mode and its job interface (what a cluster engine would run)."""

from __future__ import annotations

import json
import subprocess
import sys

from grader.classroom import batch
from grader.course.catalog import ROOT
from tests.conftest import own_answer


def make_class(root):
    for student, source in [("alice", "solutions/a3_broadcast.py"), ("bob", "exercises/a3_broadcast.py"),
                            ("carol", "solutions/mutants/a3_broadcast/left_align.py")]:
        (root / student).mkdir(parents=True)
        own_answer(ROOT / source, root / student / "a3_broadcast.py", student)
    (root / "dave").mkdir()  # submitted nothing
    return root


def test_grade_class_writes_levels(tmp_path):
    rows = batch.grade_class(make_class(tmp_path / "class"), jobs=2, only=["A3"])
    a = {r["student"]: r["A"] for r in rows}
    assert a == {"alice": 1, "bob": 0, "carol": 0, "dave": 0}
    batch.write_csv(rows, tmp_path / "levels.csv")
    assert (tmp_path / "levels.csv").read_text().splitlines()[0].startswith("student,level,pass_line")


def test_job_interface_round_trips_through_json(tmp_path):
    """A batch queue runs `grader job job.json > result.json` per task, then collects."""
    klass = make_class(tmp_path / "class")
    results = tmp_path / "results"
    results.mkdir()
    for i, job in enumerate(batch.make_jobs(sorted(klass.iterdir()), only=["A3"])):
        job_file = tmp_path / f"job{i}.json"
        job_file.write_text(json.dumps(job))
        out = subprocess.run([sys.executable, "-m", "grader.cli", "job", str(job_file)], capture_output=True,
                             text=True, check=True).stdout
        (results / f"{i}.json").write_text(out)
    rows = batch.collect(results)
    direct = batch.grade_class(klass, jobs=1, only=["A3"])
    assert rows == direct
