"""Grading a class: many submissions, one pool, one CSV of levels.

A submission is a folder of exercise modules (like ``exercises/``); its name is the student.
The unit of work is a *job*, plain JSON in and out, so that a course that outgrows one machine
can hand the same jobs to a cluster engine unchanged:

    job    = {"submission": "/path/to/alice", "exercise": "A3"}
    result = {"submission": ..., "student": "alice", "exercise": "A3", "result": {...}}

* here: :func:`grade_class` runs every (submission, exercise) job of the class in one pool of
  ``jobs`` workers, heaviest exercises first;
* Ray: ``ray.get([ray.remote(run_job).remote(j) for j in make_jobs(...)])``, then
  :func:`summarize_class` on the results;
* a batch queue (Slurm, a job array): one ``grader job job.json > result.json`` per task, then
  ``grader batch --collect results/``.
"""

from __future__ import annotations

import csv
import io
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader.course import catalog
from grader.course import levels
from grader.engine import runner
from grader.engine.results import ExerciseResult
from grader.isolation import files


def make_jobs(submissions: list[Path], only: list[str] | None = None) -> list[dict]:
    exs = [ex for ex in catalog.CATALOG if ex.available and (not only or ex.id in only)]
    exs.sort(key=lambda ex: -ex.timeout_s)  # heaviest first: the wall time follows the longest path
    return [{"submission": os.path.abspath(sub), "exercise": ex.id} for ex in exs for sub in submissions]


def run_job(job: dict) -> dict:
    """Grade one exercise of one submission. Plain JSON in, plain JSON out."""
    folder = Path(job["submission"])
    ex = catalog.get(job["exercise"])
    module_file = folder / f"{ex.module}.py"
    if folder.is_symlink():  # a link to a classmate's folder, or to solutions/: not this student's work
        res = runner.uniform_result(ex, "refused", f"the submission folder {folder.name} is a symbolic link")
    elif module_file.exists() or module_file.is_symlink():  # a link is refused by the runner, with its reason
        res = runner.grade_exercise(ex, module_file, hidden=[folder.parent])  # classmates' folders
    else:
        res = runner.uniform_result(ex, "missing", f"{module_file.name} not found", status="missing")
    return {"submission": str(folder), "student": folder.name, "exercise": ex.id, "result": res.to_dict()}


def summarize_class(job_results: list[dict]) -> list[dict]:
    """One row per student: level, pass line, set scores (the same rules as ``make grade``)."""
    by_student: dict[str, dict[str, ExerciseResult]] = {}
    for r in job_results:
        by_student.setdefault(r["student"], {})[r["exercise"]] = ExerciseResult.from_dict(r["result"])
    rows = []
    for student in sorted(by_student):
        s = levels.summarize({k: v.outcome() for k, v in by_student[student].items()})
        rows.append({"student": student, **s.row()})
    return rows


def grade_class(submissions_dir: Path, *, jobs: int = 2, only: list[str] | None = None,
                on_job=None) -> list[dict]:
    """Grade every subfolder of ``submissions_dir``; returns the per-student rows."""
    subs = sorted(p for p in Path(submissions_dir).iterdir()
                  if p.is_dir() and not p.is_symlink() and not p.name.startswith("."))
    todo = make_jobs(subs, only)
    runner.warm_up(heavy=len(todo) > 2)
    results = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for r in pool.map(run_job, todo):
            results.append(r)
            if on_job:
                on_job(r)
    return summarize_class(results)


def write_csv(rows: list[dict], path: Path) -> None:
    out = io.StringIO(newline="")
    if rows:
        w = csv.DictWriter(out, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    files.replace_file(path, out.getvalue().encode())  # a link at ``path`` is replaced, not written through


def collect(results_dir: Path) -> list[dict]:
    """Rows from a folder of job results written by ``grader job`` (a batch queue's output)."""
    return summarize_class([json.loads(p.read_text()) for p in sorted(Path(results_dir).glob("*.json"))])
