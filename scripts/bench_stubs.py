"""Untouched stubs, before and after they were left unrun (grader.engine.stubs; issues 30 and 28).

One run times, for the code at ``--before`` (a git revision, exported to a temporary folder and
run with this venv) and for this checkout:

* ``grader grade --no-quiz --fresh`` of the untouched exercises/ folder (a fresh learner's first grade);
* ``grader batch --fresh`` of 3 submissions of mostly untouched stubs: one all stubs, one with A3
  answered (a registered wrong answer, graded for real), one with A5's stub plus a top-level
  statement (a changed stub: graded for real);

each with an empty grader cache of its own, one after the other, and prints the wall times and
their ratios (timings on a shared machine say more about the load than the grader: read the ratios,
and the load printed beside them).

    .venv/bin/python scripts/bench_stubs.py [--before REV] [--only IDS] [--jobs N]
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def export(rev: str, dest: Path) -> Path:
    """The tree of ``rev`` in ``dest`` (git archive: nothing of the repository's state changes)."""
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def submissions(tree: Path, dest: Path) -> Path:
    """3 submissions of mostly untouched stubs (the same files for either tree)."""
    stubs = tree / "exercises"
    for name in ("ada", "bo", "cy"):
        shutil.copytree(stubs, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(tree / "solutions/mutants/a3_broadcast/left_align.py", dest / "bo" / "a3_broadcast.py")
    a5 = dest / "cy" / "a5_first_loss.py"
    a5.write_text(a5.read_text() + "\nprint('a changed stub')\n")
    return dest


def timed(cmd: list[str], tree: Path, cache: Path) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "GRADER_CACHE_DIR": str(cache), "COLUMNS": "200"}
    start = time.monotonic()
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} in {tree}: exit {out.returncode}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}")
    return wall, out.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default="", help="the revision to compare with (default: the merge base with main)")
    ap.add_argument("--only", default="", help="exercise ids (default: every one)")
    ap.add_argument("--jobs", default="2")
    args = ap.parse_args(argv)
    before = (
        args.before
        or subprocess.run(
            ["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True, capture_output=True, text=True
        ).stdout.strip()
    )
    only = ["--only", args.only] if args.only else []
    python = sys.executable
    print(f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start; before = {before[:10]}")
    rows = {}
    with tempfile.TemporaryDirectory(prefix="bench-stubs-") as tmp:
        tmp = Path(tmp)
        trees = {"before": export(before, tmp / "before"), "after": ROOT}
        for when, tree in trees.items():
            subs = submissions(tree, tmp / f"subs-{when}")
            grade = [python, "-m", "grader", "grade", "--target", str(tree / "exercises"), "--no-quiz", "--fresh"]
            rows[when, "grade"] = timed(grade + only, tree, tmp / f"cache-grade-{when}")
            out = tmp / f"levels-{when}.csv"
            batch = [python, "-m", "grader", "batch", str(subs), "--jobs", args.jobs, "--out", str(out), "--fresh"]
            rows[when, "batch"] = timed(batch + only, tree, tmp / f"cache-batch-{when}")
            with out.open() as f:
                levels = [(r["student"], r.get("level", "")) for r in csv.DictReader(f)]
            print(
                f"{when}: grade {rows[when, 'grade'][0]:.1f} s, batch {rows[when, 'batch'][0]:.1f} s; levels {levels}"
            )
            sys.stdout.flush()
    for what, label in (
        ("grade", "grader grade --no-quiz (untouched exercises/)"),
        ("batch", "grader batch (3 submissions)"),
    ):
        b, a = rows["before", what][0], rows["after", what][0]
        print(f"{label}: before {b:.1f} s, after {a:.1f} s, {b / a:.1f}x faster")
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
