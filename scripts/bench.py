"""``make bench``: the grader's speed, measured in one run on this machine.

Prints, for the reference solutions:
  * full grade, cold (first run) and warm (again, nothing reused);
  * the solutions' and checks' own compute (every check run in-process, without isolation),
    so that the grading overhead is a ratio within the same run;
  * a re-grade after editing the quickest exercise to grade (incremental);
  * a class of 4 submissions (set A unless --class-only says otherwise) with 2 workers, and
    nbgrader autograde of the same 4 submissions (classroom mode), for comparison;
  * a synthetic class of 20 different submissions (--class-size; right answers of their own,
    stubs, wrong answers) with 1 and 2 local workers and through a local Ray head (2 CPUs), in
    one run, with the cost per submission and the projection to 500 students on N workers.

Timings on a noisy machine move; compare ratios within one run, and rerun to see the spread.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

import nbformat

from grader import classroom
from grader.classroom import batch
from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import cache, runner


class Table(list):
    """Rows of (what, value, note[, target]), each printed as soon as it is measured, with the goal
    it is measured against beside it (issue 30) and whether this run met it. ``value`` is seconds
    unless ``unit`` says otherwise (a ratio, a size)."""

    WIDTH = 56

    def append(self, row) -> None:
        what, value, note, *rest = row
        target = rest[0] if rest else None
        unit = rest[1] if len(rest) > 1 else "s"
        verdict = "" if target is None else ("met" if target.met(value) else "MISSED")
        super().append(
            {
                "what": what,
                "value": round(value, 2),
                "unit": unit,
                "note": note,
                "target": target.text if target else "",
                "verdict": verdict,
            }
        )
        if len(self) == 1:
            print(f"{'what':<{self.WIDTH}}  {'value':>9}  {'target':<18}  note", flush=True)
        goal = f"{target.text} {verdict}" if target else ""
        print(f"{what:<{self.WIDTH}}  {value:8.1f}{unit[:1]}  {goal:<18}  {note}", flush=True)


class Target:
    """A goal of issue 30: ``at_most`` or ``at_least`` a value, in the row's unit."""

    def __init__(self, text: str, at_most: float | None = None, at_least: float | None = None):
        self.text, self.at_most, self.at_least = text, at_most, at_least

    def met(self, value: float) -> bool:
        return (self.at_most is None or value <= self.at_most) and (self.at_least is None or value >= self.at_least)


def size_mib(path: Path) -> float:
    """Disk use of a folder (its files' blocks, links not followed), MiB; 0 when absent."""
    total = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            try:
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
            except OSError:
                pass
    return total / 2**20


def needed(project: str = "toolbox-grader", extras: tuple[str, ...] = ()) -> set[str]:
    """The installed distributions ``project`` (with ``extras``) needs, transitively, from their
    metadata: what a learner's install (no extra) holds, measured in this venv."""
    from importlib import metadata

    def name(req: str) -> str:
        return re.split(r"[ ;\[<>=!~(]", req, maxsplit=1)[0].lower().replace("_", "-")

    import tomllib

    # The project's own requirements from pyproject.toml: an installed copy's metadata may be older.
    own = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    own_requires = [
        *own["dependencies"],
        *(f"{d}; extra == '{x}'" for x, ds in own["optional-dependencies"].items() for d in ds),
    ]
    seen, todo = set(), [(project, extras)]
    while todo:
        dist, wanted = todo.pop()
        if (dist, wanted) in seen:
            continue
        seen.add((dist, wanted))
        try:
            requires = own_requires if dist == project else metadata.requires(dist) or []
        except metadata.PackageNotFoundError:
            continue
        for req in requires:
            marker = req.split(";", 1)[1] if ";" in req else ""
            extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)", marker)
            if extra and extra.group(1) not in wanted:
                continue
            if not extra and marker and not _marker_holds(marker):
                continue
            sub = re.search(r"\[([^\]]+)\]", req.split(";")[0])
            todo.append((name(req), tuple(x.strip() for x in sub.group(1).split(",")) if sub else ()))
    return {dist for dist, _ in seen} - {project}


def _marker_holds(marker: str) -> bool:
    try:
        from packaging.markers import Marker
    except ImportError:
        return True
    return Marker(marker).evaluate({"extra": ""})


def install_rows(rows: Table) -> None:
    """What a learner's machine needs: the venv, the model cache, the platform."""
    from importlib import metadata

    from grader.given import smollm

    venv = Path(sys.prefix)
    learner, everything = needed(), {d.metadata["Name"].lower() for d in metadata.distributions()}
    rows.append((LEARNER_PACKAGES, len(learner), "no extra", None, "packages"))
    rows.append((ALL_PACKAGES, len(everything), "", None, "packages"))
    rows.append((VENV_SIZE, size_mib(venv), str(venv.name), None, "MiB"))
    rows.append((MODEL_CACHE_SIZE, size_mib(smollm.cache_dir()), "", None, "MiB"))
    print(
        f"platform: {platform.system()} {platform.machine()} (the learner's sandbox needs Linux: "
        "seccomp, pivot_root, /proc)",
        flush=True,
    )


# The rows the README's first-run line quotes, by name (one place: the rows are written with these).
COLD_GRADE = "full grade of the solutions, cold"
MAKE_TEST = "`make test FRESH=1` (both passes, no harness verdict reused)"
LEARNER_PACKAGES = "packages of a learner's install (make grade)"
ALL_PACKAGES = "packages installed here (make test: every extra)"
VENV_SIZE = "venv size (this one: every extra installed)"
MODEL_CACHE_SIZE = "model cache size (SmolLM2 for P4, X5, B3)"

# Figures are this script's output, never hand-copied: --json writes a run's rows, --render writes
# from such a file docs/performance.md's table and README.md's first-run line, each between its markers.
TABLE = ("<!-- bench table: scripts/bench.py --render, do not edit -->", "<!-- end bench table -->")
FIRST_RUN = ("<!-- first-run cost: scripts/bench.py --render, do not edit -->", "<!-- end first-run cost -->")


def shown(r: dict) -> str:
    return f"{r['value']:.0f} {r['unit']}" if r["unit"] in ("packages", "MiB") else f"{r['value']:.1f} {r['unit']}"


def render(run: dict) -> str:
    """docs/performance.md's table: every row of the run, with its goal and verdict."""
    lines = [
        TABLE[0],
        "",
        f"`{run['command']}` on {run['date']}: {run['machine']}.",
        "",
        "| what | value | target | note |",
        "|---|---:|---|---|",
    ]
    for r in run["rows"]:
        target = f"{r['target']}: {r['verdict']}" if r["target"] else ""
        lines.append(f"| {r['what']} | {shown(r)} | {target} | {r['note']} |")
    return "\n".join(lines + ["", TABLE[1]])


def render_first_run(run: dict) -> str:
    """README.md's first-run line: the venv, the model cache and the times, as the run measured
    them, and saying so where the run did not measure one (a reduced run times no full grade)."""
    rows = {r["what"]: r for r in run["rows"]}

    def value(what: str, missing: str) -> str:
        r = rows.get(what)
        return shown(r) if r and r["value"] else missing

    text = (
        f"First run, as `make bench` measured it on {run['date']} ({run['machine']}): the venv "
        f"{value(VENV_SIZE, 'not measured')} with every extra ({value(ALL_PACKAGES, '?')}; a learner's install "
        f"needs {value(LEARNER_PACKAGES, '?')}), the model cache "
        f"{value(MODEL_CACHE_SIZE, 'not built in that run (the first grade of P4, X5 or B3 builds it)')}, "
        f"the first full grade {value(COLD_GRADE, 'not timed in that run')}, "
        f"`make test` {value(MAKE_TEST, 'not timed in that run')}. "
        "The full table: [performance](docs/performance.md)."
    )
    return "\n".join([FIRST_RUN[0], textwrap.fill(text, 100, break_on_hyphens=False), FIRST_RUN[1]])


PAGES = {"docs/performance.md": (TABLE, render), "README.md": (FIRST_RUN, render_first_run)}


def update_pages(run: dict, root: Path = ROOT) -> None:
    for page, ((start_mark, end_mark), rendered) in PAGES.items():
        path = root / page
        text = path.read_text()
        start, end = text.index(start_mark), text.index(end_mark) + len(end_mark)
        path.write_text(text[:start] + rendered(run) + text[end:])


def passed(results) -> str:
    """'124/129 key points passed (5 not verifiable here)': what the timed run concluded."""
    kps = [k for r in results.values() for k in r.key_points]
    others = Counter(k.status for k in kps if not k.passed)
    rest = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in sorted(others.items()))
    return f"{sum(k.passed for k in kps)}/{len(kps)} key points passed" + (f" ({rest})" if rest else "")


STUDENTS = ("s1", "s2", "s3", "s4")


def synthetic_class(dest: Path, exs, size: int) -> Path:
    """``size`` different submissions, drawn per student and exercise (seeded): a right answer of
    the student's own (60%: the reference with a line of its own), the stub (20%), or a wrong answer
    whose first function returns None (20%)."""
    for i in range(size):
        draw = random.Random(i)
        folder = dest / f"student{i:03d}"
        folder.mkdir(parents=True)
        for ex in exs:
            solution = (ROOT / "solutions" / f"{ex.module}.py").read_text()
            kind = draw.choices(("right", "stub", "wrong"), (6, 2, 2))[0]
            if kind == "stub":
                text = (ROOT / "exercises" / f"{ex.module}.py").read_text()
            elif kind == "wrong":
                name = next(
                    n.name
                    for n in ast.parse(solution).body
                    if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
                )
                text = solution + f"\n\ndef {name}(*args, **kwargs):  # student{i:03d}\n    return None\n"
            else:
                text = solution + f"\n\nANSWERED_BY = 'student{i:03d}'\n"  # not the reference verbatim
            (folder / f"{ex.module}.py").write_text(text)
    return dest


def projection(per_submission_s: float, efficiency: float, students: int = 500) -> str:
    hours = {n: students * per_submission_s / (n * efficiency) / 3600 for n in (2, 16, 64, 256)}
    return ", ".join(f"{n} workers {h:.1f} h" if h >= 1 else f"{n} workers {60 * h:.0f} min" for n, h in hours.items())


def set_scores(class_rows, exs) -> str:
    """What each student scored on the sets graded, e.g. 'A 10/10 x4': the run graded for real."""
    sets = sorted({ex.set for ex in exs})
    return ", ".join(f"{s} " + "/".join(str(r.get(s)) for r in class_rows) for s in sets) + " per student"


def start_local_ray() -> None:
    """A local Ray head of 2 CPUs, started as tests/test_batch.py starts its own (no token on loopback)."""
    import ray

    from grader.classroom import raypool

    os.environ.update(raypool.LOCAL_HEAD_ENV)  # the head ray.init starts reads them from here
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {k: v for k, v in os.environ.items() if k in raypool.PASSED_ON}},
    )


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def copy_solutions(dest: Path, exs, who: str = "bench") -> Path:
    """The reference answers as a learner's own files (a line of their own: a verbatim copy of
    the reference gets no credit)."""
    dest.mkdir(parents=True)
    for ex in exs:
        src = ROOT / "solutions" / f"{ex.module}.py"
        (dest / src.name).write_text(src.read_text() + f"\n\nANSWERED_BY = {who!r}\n")
    return dest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--class-only",
        default="",
        help="exercise ids for the class/nbgrader part (default: set A, the classroom's first assignment)",
    )
    parser.add_argument("--class-size", type=int, default=20, help="submissions in the synthetic class")
    parser.add_argument(
        "--class-part-only",
        action="store_true",
        help="only the class measurements (no full grade, no nbgrader comparison)",
    )
    parser.add_argument(
        "--with-make-test",
        action="store_true",
        help="also time the project's tests (pytest tests), CPU seconds of the tree too",
    )
    parser.add_argument("--json", default="", help="write the run's rows to this file (for --render)")
    parser.add_argument(
        "--render",
        default="",
        metavar="RUN.json",
        help="only write docs/performance.md's table and README.md's first-run line from a run written by --json",
    )
    args = parser.parse_args()
    if args.render:
        update_pages(json.loads(Path(args.render).read_text()))
        return 0
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0]
    exs = catalog.available()
    class_exs = (
        [catalog.get(i) for i in args.class_only.split(",")] if args.class_only else [ex for ex in exs if ex.set == "A"]
    )
    ids = [ex.id for ex in exs]
    rows = Table()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        tmp = Path(tmp)
        cache.CACHE_DIR = tmp / "cache"
        # the check processes too (the SFT memo lives there): the cold row trains from scratch
        os.environ["GRADER_CACHE_DIR"] = str(cache.CACHE_DIR)
        sols = copy_solutions(tmp / "solutions", exs)

        isolated = 0.0
        only = [ex.id for ex in class_exs]
        if not args.class_part_only:
            cold, results = timed(lambda: runner.grade(sols, only=ids))
            rows.append((COLD_GRADE, cold, passed(results)))
            warm, results = timed(lambda: runner.grade(sols, only=ids))
            rows.append(("full grade of the solutions, warm", warm, passed(results), Target("<= 90 s", at_most=90)))
            isolated = sum(r.duration_s for r in results.values())
            rows.append(("  its exercises' grading times, summed", isolated, "checks + learner code isolated"))
            # The same grade with the learner's module imported into the check process: no worker
            # process, no sandbox, no pipe. Its key points' own time is what grading cannot avoid.
            wall, results = timed(lambda: runner.grade(sols, only=ids, in_process=True))
            harness = sum(r.duration_s for r in results.values())
            compute = sum(k.duration_s for r in results.values() for k in r.key_points)
            rows.append(
                (
                    "  the same, in-process (no isolation), summed",
                    harness,
                    f"{passed(results)}; isolation costs {(isolated - harness) / harness:.0%}",
                )
            )
            rows.append(("  its key points' own compute (checks + solutions)", compute, "in-process, summed"))
            rows.append(
                (
                    "  per-exercise overhead (processes, pytest, isolation)",
                    100 * (isolated - compute) / compute,
                    "of the key points' own compute",
                    Target("<= 10%", at_most=10),
                    "%",
                )
            )
            # What grading costs beyond the checks' own work: each check process started and its
            # checks collected, with no key point run (fixtures that compute ground truth run only
            # for a key point, so they count as the checks' compute).
            startup = sum(runner.grade_exercise(ex, sols / f"{ex.module}.py", key_points=[]).duration_s for ex in exs)
            rows.append(
                (
                    "  check process + pytest start-up alone, summed",
                    startup,
                    f"{startup / (isolated - startup):.0%} of the rest (checks' + solutions' compute)",
                )
            )

            # What a learner does after editing one exercise: `make grade` (a new process) again.
            # A3 is the course's NumPy-only exercise; the rest of the grade comes from the cache.
            cli = [str(Path(sys.executable).parent / "grader"), "grade", "--target", str(sols)]
            env = {**os.environ, "GRADER_CACHE_DIR": str(cache.CACHE_DIR)}
            subprocess.run(cli, env=env, check=True, capture_output=True)  # fill the cache
            f = sols / "a3_broadcast.py"
            f.write_text(f.read_text() + "\n# edited\n")
            regrade, out = timed(lambda: subprocess.run(cli, env=env, check=True, capture_output=True, text=True))
            rows.append(
                (
                    "`grader grade` after editing A3 (incremental, new process)",
                    regrade,
                    "the other exercises from the cache"
                    if "unchanged" in out.stdout + out.stderr
                    else "NOT from the cache",
                    Target("<= 2 s", at_most=2),
                )
            )

            # Four students with the right answers, each file different (a line of their own), so
            # that neither path can reuse one student's verdict for another.
            klass = tmp / "class"
            for student in STUDENTS:
                copy_solutions(klass / student, class_exs, who=student)
            only = [ex.id for ex in class_exs]
            two, rows2 = timed(lambda: batch.grade_class(klass, jobs=2, only=only))
            rows.append((f"class of 4 submissions ({', '.join(only)}), 2 workers", two, set_scores(rows2, class_exs)))

            course = tmp / "course"
            names = classroom.build_course(course, only=only)
            env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
            nbgrader = str(Path(sys.executable).parent / "nbgrader")
            for name in names:
                subprocess.run(
                    [nbgrader, "generate_assignment", name], cwd=course, env=env, check=True, capture_output=True
                )
                for student in STUDENTS:
                    dest = course / "submitted" / student / name
                    dest.mkdir(parents=True)
                    nb = nbformat.read(course / "source" / name / f"{name}.ipynb", as_version=4)
                    for cell in nb.cells:
                        if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("__answer"):
                            cell.source += f"\nANSWERED_BY = {student!r}\n"  # not the reference verbatim
                    nbformat.write(nb, dest / f"{name}.ipynb")

            def autograde():
                for name in names:
                    subprocess.run([nbgrader, "autograde", name], cwd=course, env=env, check=True, capture_output=True)

            nb, _ = timed(autograde)
            rows.append(
                (
                    "nbgrader autograde, same 4 submissions",
                    nb,
                    f"ours with 2 workers: {two / nb:.2f}x its time; "
                    + set_scores(classroom.mastery(course), class_exs),
                )
            )

        # A class of --class-size different submissions: 1 and 2 local workers, then a local Ray head.
        size = args.class_size
        synth = synthetic_class(tmp / "synthetic", class_exs, size)
        runner.warm_up(heavy=True)  # as the full grade left it: no run below pays the fork servers' start
        batch.run_job(batch.make_jobs(batch.submissions_in(synth), only)[0])
        one, jobs1 = timed(lambda: batch.grade_class_jobs(synth, jobs=1, only=only))
        two, jobs2 = timed(lambda: batch.grade_class_jobs(synth, jobs=2, only=only))
        levels1 = Counter(r["level"] for r in batch.summarize_class(jobs1))
        rows.append(
            (
                f"class of {size} different submissions, 1 worker",
                one,
                f"{one / size:.1f} s per submission ({', '.join(only)}); levels {dict(levels1)}",
            )
        )
        rows.append((f"class of {size}, 2 workers", two, f"efficiency {one / two / 2:.0%}"))
        rows.append(
            (
                "  speed-up on 2 workers",
                one / two,
                "1 worker's time / 2 workers'",
                Target(">= 1.8x (quiet)", at_least=1.8),
                "x",
            )
        )
        import ray

        try:
            start_local_ray()
        except Exception as exc:  # noqa: BLE001 - a head that cannot start (a loaded machine) costs its rows only
            ray.shutdown()  # whatever of the head did start
            print(f"local Ray head did not start: {str(exc).splitlines()[0]}", flush=True)
        else:
            try:
                on_ray, jobs_ray = timed(lambda: batch.grade_class_jobs(synth, jobs=2, only=only, use_ray=True))
            finally:
                ray.shutdown()
            same = batch.summarize_class(jobs_ray) == batch.summarize_class(jobs2)
            rows.append(
                (
                    f"class of {size}, local Ray head (2 CPUs, 2 actors)",
                    on_ray,
                    f"levels {'identical' if same else 'DIFFERENT'} to the local pool's",
                )
            )
            rows.append(
                (
                    "  Ray's time / the local pool's",
                    on_ray / two,
                    "2 workers each",
                    Target("<= 1.15x", at_most=1.15),
                    "x",
                )
            )
        efficiency = one / two / 2
        per_class_sub = sum(r["result"]["duration_s"] for r in jobs1) / size
        rows.append(
            (
                f"  per submission ({', '.join(only)}), one core",
                per_class_sub,
                "1 worker's gradings summed / class size",
                Target("<= 15 s (set A)", at_most=15),
            )
        )
        print(
            f"\nper submission ({', '.join(only)}): {per_class_sub:.1f} s of one core; 500 students on N workers "
            f"(at the 2-worker efficiency, {efficiency:.0%}): {projection(per_class_sub, efficiency)}"
        )
        if not args.class_part_only:
            print(
                f"the whole course per submission: {isolated:.1f} s of one core (the full grade's exercises, "
                f"summed); 500 students: {projection(isolated, efficiency)}"
            )

    if args.with_make_test:
        # The command itself (both passes, xdist), its CPU counted over the whole tree (scripts/treetime.py).
        proc = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "treetime.py"), "make", "test", "FRESH=1"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        wall, user, system = map(
            float, re.findall(r"treetime: wall (\S+) s, user (\S+) s, sys (\S+) s", proc.stderr)[-1]
        )
        passes = re.findall(r"^=* ?(\d+ (?:passed|failed)\b.*?) in [\d.]+s", proc.stdout, re.M) or ["no summary"]
        rows.append(
            (
                MAKE_TEST,
                wall,
                f"{'; '.join(passes)}; {user + system:.0f} CPU s ({system:.0f} sys) of the whole tree",
                Target("<= 480 s", at_most=480),
            )
        )
    install_rows(rows)
    machine = f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, load {load:.1f} at the start"
    print(f"\nmachine: {machine}; exercises available: {', '.join(ids)}")
    if args.json:
        command = " ".join(["scripts/bench.py", *sys.argv[1:]])
        Path(args.json).write_text(
            json.dumps(
                {"command": command, "date": started, "machine": machine, "rows": list(rows)},
                ensure_ascii=False,
                indent=1,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
