"""Grading a class: many submissions, one pool (here, or a Ray cluster), one CSV of levels.

A submission is a folder of exercise modules (like ``exercises/``, in any subfolder) or of the
course's notebooks, read as Gradescope reads one (:func:`gathered`); its name is the student.
The unit of work is a *job*, plain JSON in and out, so that every engine runs the same jobs
through the same sandboxed runner (:func:`run_job` calls :func:`grader.engine.runner.grade_exercise`;
an untouched stub, :func:`grader.engine.stubs.untouched`, is answered without running, as ``make grade`` does):

    job    = {"submission": "/path/to/alice", "exercise": "A3"}
    result = {"submission": ..., "student": "alice", "exercise": "A3", "result": {...}}

* here: :func:`grade_class` runs every (submission, exercise) job of the class in one pool of
  ``jobs`` workers, heaviest exercises first;
* Ray: ``grade_class(..., ray_address=...)`` runs the same jobs on a Ray cluster, one warmed-up
  grading actor per worker (:mod:`grader.classroom.raypool`);
* a batch queue (Slurm, a job array): one ``grader job job.json > result.json`` per task, then
  ``grader batch --collect results/``.

**Progress and resume.** Each finished job is appended, as one JSON line, to the class's results
log (``log=``; ``grader batch`` keeps it beside the CSV) with the fingerprint it was graded under
(:meth:`grader.engine.cache.ResultCache.fingerprint`: the learner's module and the modules it
imports, the checks and the grader code they import, the solution, the library versions). A
rerun after an interruption reads the log and grades only the jobs that have no line for their
current fingerprint; results that the machine's load may have decided (timeouts, out of memory,
a dead process, a grader bug) are graded again, as ``make grade`` does, except a call that ran to
its limit while the load took nearly nothing from it (a hang: the same code hangs again; kept
until its code changes or ``fresh``). :class:`Eta` estimates
the time left from what each exercise has cost so far.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from grader.classroom.submission import as_submitted, gather
from grader.course import catalog, levels
from grader.engine import cache, runner, stubs
from grader.engine.results import ExerciseResult
from grader.i18n import _
from grader.isolation import files

OnJob = Callable[[dict, "Eta"], None]


def make_jobs(submissions: list[Path], only: list[str] | None = None) -> list[dict]:
    exs = [ex for ex in catalog.CATALOG if ex.available and (not only or ex.id in only)]
    exs.sort(key=lambda ex: -ex.timeout_s)  # heaviest first: the wall time follows the longest path
    return [{"submission": os.path.abspath(sub), "exercise": ex.id} for ex in exs for sub in submissions]


def submitted_exercises(submissions: list[Path]) -> list[str]:
    """The class's exercises: those some submission holds an answer to (a module, a notebook's
    answer cell, or a file refused for one), in the catalog's order. A student without one of them
    is "missing" for it; an exercise nobody submitted is not the class's."""
    found: set[str] = set()
    for sub in submissions:
        if sub.is_symlink():
            continue
        try:
            with gathered(sub) as (copy, notes):
                found |= {ex.id for ex in catalog.CATALOG if (copy / f"{ex.module}.py").exists()}
                found |= {ex.id for ex in catalog.CATALOG if notes_about(ex, notes)}
        except OSError:
            continue
    return [ex.id for ex in catalog.CATALOG if ex.id in found]


def class_jobs(submissions: list[Path], only: list[str] | None = None) -> list[dict]:
    """The jobs of a class: ``only``'s exercises, else :func:`submitted_exercises`, for every submission."""
    return make_jobs(submissions, only or submitted_exercises(submissions) or None)


def run_job(job: dict) -> dict:
    """Grade one exercise of one submission. Plain JSON in, plain JSON out.

    The submission is read as Gradescope reads one (:func:`grader.classroom.submission.gather`): its
    modules wherever they are, or a notebook's answer cells; of two copies of one exercise's answer
    the first is graded and the other named in the result's note. ``"gathered": true``: the folder
    is such a copy already (Gradescope's)."""
    from grader.isolation import sandbox

    sandbox.grading_others_work()
    folder = Path(job["submission"])
    ex = catalog.get(job["exercise"])
    if folder.is_symlink():  # a link to a classmate's folder, or to solutions/: not this student's work
        res = runner.uniform_result(
            ex, "refused", _("the submission folder {folder} is a symbolic link", folder=folder.name)
        )
    elif job.get("gathered"):
        res = _grade_module(ex, folder, hidden=[folder.parent])
    else:
        with gathered(folder) as (copy, notes):
            said = notes_about(ex, notes)
            refused = [n for n in said if n.kind == "refused"]
            if refused and not (copy / f"{ex.module}.py").exists():  # a link, a FIFO, too large: never "missing"
                return _job_result(folder, ex, runner.uniform_result(ex, "refused", _said(refused[0])))
            graded = as_submitted(_grade_module(ex, copy, hidden=[folder.parent]), copy, notes)
            res = _named_as_submitted(graded, copy, folder)  # hidden: classmates'
            for note in said:
                res.note = _("{note}; {more}", note=res.note, more=note.message) if res.note else _said(note)
    return _job_result(folder, ex, res)


def _job_result(folder: Path, ex: catalog.Exercise, res: ExerciseResult) -> dict:
    return {"submission": str(folder), "student": folder.name, "exercise": ex.id, "result": res.to_dict()}


def _named_as_submitted(res: ExerciseResult, copy: Path, folder: Path) -> ExerciseResult:
    """The result with the copy's temporary path said as the submission's (a traceback names the
    file): the same verdict whichever copy, process or node graded it."""
    import dataclasses

    def said(text):
        return text.replace(str(copy), str(folder)) if isinstance(text, str) and str(copy) in text else text

    kps = [
        dataclasses.replace(k, **{f: said(getattr(k, f)) for f in ("message", "traceback", "example")})
        for k in res.key_points
    ]
    return dataclasses.replace(res, key_points=kps, note=said(res.note))


def _grade_module(ex: catalog.Exercise, folder: Path, hidden: list[Path]) -> ExerciseResult:
    module_file = folder / f"{ex.module}.py"
    if stubs.untouched(ex, module_file):  # the stub as released: not run, as make grade says
        return stubs.untouched_result(ex)
    if module_file.exists() or module_file.is_symlink():  # a link is refused by the runner, with its reason
        return runner.grade_exercise(ex, module_file, hidden=hidden)
    return runner.uniform_result(
        ex, "missing", _("{module_file} not found", module_file=module_file.name), status="missing"
    )


@contextlib.contextmanager
def gathered(folder: Path):
    """(a copy of the submission as graded, gather's notes on it), the copy removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="submission-") as tmp:
        os.chmod(tmp, 0o755)  # the learner's own user id reads the copy
        copy = Path(tmp) / "submission"
        yield copy, gather(folder, copy)


def _said(note) -> str:
    """A gather note as a result's text, kept as its message (shown in the reader's language)."""
    return _(note.message.msgid, **dict(note.message.fields))


def notes_about(ex: catalog.Exercise, notes: list) -> list:
    """gather's notes on ``ex``'s answer that was not taken (a second copy ignored, a file refused)."""
    out = []
    for note in notes:
        fields = dict(note.message.fields)
        named = fields.get("id") == ex.id or any(
            Path(str(v)).name == f"{ex.module}.py" for k, v in fields.items() if k in ("where", "used", "name")
        )
        if note.kind != "taken" and named:
            out.append(note)
    return out


def level_columns() -> list[str]:
    """The columns of ``grader batch``'s levels.csv (one row per student: :func:`summarize_class`)."""
    return ["student", *levels.summarize({}).row()]


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


def submissions_in(submissions_dir: Path) -> list[Path]:
    return sorted(
        p for p in Path(submissions_dir).iterdir() if p.is_dir() and not p.is_symlink() and not p.name.startswith(".")
    )


def grade_class(
    submissions_dir: Path,
    *,
    jobs: int | None = 2,
    only: list[str] | None = None,
    on_job: OnJob | None = None,
    log: Path | None = None,
    fresh: bool = False,
    ray_address: str | None = None,
    use_ray: bool = False,
) -> list[dict]:
    """Grade every subfolder of ``submissions_dir``; returns the per-student rows."""
    return summarize_class(
        grade_class_jobs(
            submissions_dir,
            jobs=jobs,
            only=only,
            on_job=on_job,
            log=log,
            fresh=fresh,
            ray_address=ray_address,
            use_ray=use_ray,
        )
    )


def grade_class_jobs(
    submissions_dir: Path,
    *,
    jobs: int | None = 2,
    only: list[str] | None = None,
    on_job: OnJob | None = None,
    log: Path | None = None,
    fresh: bool = False,
    ray_address: str | None = None,
    use_ray: bool = False,
) -> list[dict]:
    """Every job's result, in job order: from the log where still valid, the rest graded now
    (locally with ``jobs`` workers, or on Ray when ``use_ray``; ``ray_address`` None starts or
    finds a cluster as ``ray.init()`` does). ``on_job`` hears of each job graded now."""
    todo = class_jobs(submissions_in(submissions_dir), only)
    fingerprints = _fingerprints(todo)
    done: dict[str, dict] = {} if fresh else _reusable(read_log(log) if log else [], fingerprints)
    pending = [j for j in todo if key_of(j) not in done]
    eta = Eta(pending, already=len(todo) - len(pending), earlier=done.values())
    writer = ResultsLog(log) if log else None
    lock = threading.Lock()

    def finished(result: dict) -> None:
        with lock:
            key = key_of(result)
            done[key] = result
            if writer:
                writer.append({**result, "fingerprint": fingerprints[key]})
            eta.finished(result)
            if on_job:
                on_job(result, eta)

    if pending:
        if use_ray:
            from grader.classroom import raypool

            raypool.run(pending, finished, address=ray_address, workers=jobs)
        else:
            run_local(pending, finished, jobs=jobs or 2)
    return [done[key_of(j)] for j in todo]


def run_local(todo: list[dict], finished: Callable[[dict], None], *, jobs: int) -> None:
    """The local pool: ``jobs`` jobs at once, each result handed on as soon as it is known."""
    warm_up(todo)
    runner.in_pool(run_job, todo, finished, jobs=jobs)  # interrupted: a rerun resumes from the log


def to_run(todo: list[dict]) -> list[dict]:
    """The jobs that will run a check: not an untouched stub (:func:`run_job` answers those at once),
    each submission gathered once."""
    out = []
    by_submission: dict[str, list[dict]] = {}
    for job in todo:
        by_submission.setdefault(job["submission"], []).append(job)
    for submission, jobs in by_submission.items():
        folder = Path(submission)
        if folder.is_symlink():
            continue  # refused, not run
        with contextlib.ExitStack() as stack:
            if all(job.get("gathered") for job in jobs):
                copy = folder
            else:
                copy = stack.enter_context(gathered(folder))[0]
            for job in jobs:
                ex = catalog.get(job["exercise"])
                if not stubs.untouched(ex, copy / f"{ex.module}.py"):
                    out.append(job)
    return out


def warm_up(todo: list[dict]) -> None:
    """The fork server and zygote for the jobs that will run a check (torch & co. preloaded for
    more than 2), none where every job is an untouched stub."""
    running = to_run(todo)
    if running:
        runner.warm_up(heavy=len(running) > 2)


# ---------------------------------------------------------------- results log, resume
def key_of(job: dict) -> str:
    return f"{job['submission']}\0{job['exercise']}"


def _fingerprints(todo: list[dict]) -> dict[str, str]:
    """Each job's fingerprint, as the learner's record (``make grade``) computes it."""
    out = {}
    by_submission: dict[str, list[dict]] = {}
    for job in todo:
        by_submission.setdefault(job["submission"], []).append(job)
    for submission, jobs in by_submission.items():
        folder = Path(submission)
        if folder.is_symlink():
            out.update({key_of(job): "link" for job in jobs})
            continue
        rc = cache.ResultCache(folder)
        with gathered(folder) as (copy, _notes):  # what run_job grades: the same copy
            for job in jobs:
                module_file = copy / f"{catalog.get(job['exercise']).module}.py"
                exists = module_file.exists()
                out[key_of(job)] = rc.fingerprint(catalog.get(job["exercise"]), module_file) if exists else "missing"
    return out


def _reusable(lines: list[dict], fingerprints: dict[str, str]) -> dict[str, dict]:
    """The latest logged result of each job still valid for its current fingerprint."""
    latest: dict[str, dict] = {}
    for line in lines:
        try:
            key = key_of(line)
        except KeyError:
            continue
        latest[key] = line
    out = {}
    for key, line in latest.items():
        if fingerprints.get(key) != line.get("fingerprint"):
            continue
        try:
            result = ExerciseResult.from_dict(line["result"])
        except (KeyError, TypeError):
            continue
        if cache.reusable(result) or result.status == "missing":
            out[key] = {k: line[k] for k in ("submission", "student", "exercise", "result")}
    return out


def read_log(path: Path) -> list[dict]:
    """The log's lines; a last line cut short by an interruption is skipped."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return []
    with os.fdopen(fd, "rb") as f:
        data = f.read()
    lines = []
    for raw in data.split(b"\n"):
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if isinstance(line, dict):
            lines.append(line)
    return lines


class ResultsLog:
    """Appends one JSON line per finished job, flushed at once: an interruption loses only the
    jobs in flight."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        self._f = os.fdopen(fd, "ab")
        if self._f.tell() and not self._ends_with_newline():
            self._f.write(b"\n")  # close a line an interruption cut short

    def _ends_with_newline(self) -> bool:
        with open(self.path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            return f.read(1) == b"\n"

    def append(self, line: dict) -> None:
        self._f.write(json.dumps(line).encode() + b"\n")
        self._f.flush()
        os.fsync(self._f.fileno())


# ---------------------------------------------------------------- progress
class Eta:
    """Jobs done and an estimate of the time left.

    Jobs differ by two orders of magnitude (A3 ~2 s, P4 ~30 s) and run heaviest first, so a
    count-based ETA is far off. Each pending job is costed at the mean time its exercise has
    taken so far in this run, or, before one has finished, at its catalog time limit scaled by
    how much of their limits the finished jobs used; the time left is that cost over the
    parallelism observed (job-seconds finished per wall second since the first job started: the
    pool's warm-up before it is no job's). A resumed run costs its exercises by the results it reuses
    (``earlier``) too: a first short job after the warm-up read as parallelism 0.08, "eta 54m46s" for 2 minutes.
    """

    def __init__(self, pending: Iterable[dict], already: int = 0, clock=time.monotonic, earlier: Iterable[dict] = ()):
        self._clock = clock
        self._start = clock()
        self._first_start: float | None = None
        self._pending: dict[str, str] = {key_of(j): j["exercise"] for j in pending}
        self.total = len(self._pending) + already
        self.done = already
        self.reused = already
        self._spent: dict[str, list[float]] = {}
        for result in earlier:
            self._spent.setdefault(result["exercise"], []).append(_seconds(result))
        self._busy = 0.0  # job-seconds finished in this run

    def finished(self, result: dict) -> None:
        self._pending.pop(key_of(result), None)
        self.done += 1
        seconds = _seconds(result)
        if self._first_start is None:
            self._first_start = max(self._start, self._clock() - seconds)
        self._spent.setdefault(result["exercise"], []).append(seconds)
        self._busy += seconds

    def _cost(self, ex_id: str) -> float:
        spent = self._spent.get(ex_id)
        if spent:
            return sum(spent) / len(spent)
        limits = [(sum(v), len(v) * catalog.get(e).timeout_s) for e, v in self._spent.items()]
        used = sum(s for s, _ in limits) / max(1e-9, sum(t for _, t in limits)) if limits else 0.25
        return used * catalog.get(ex_id).timeout_s

    def seconds_left(self) -> float | None:
        """None until a job of this run has finished (nothing to go by yet)."""
        if not self._pending:
            return 0.0
        elapsed = self._clock() - (self._first_start if self._first_start is not None else self._start)
        if self._busy <= 0 or elapsed <= 0:
            return None
        parallelism = self._busy / elapsed
        return sum(self._cost(e) for e in self._pending.values()) / parallelism

    def text(self) -> str:
        left = self.seconds_left()
        if left is None:
            return "eta --"
        m, s = divmod(int(round(left)), 60)
        h, m = divmod(m, 60)
        return f"eta {h}h{m:02d}m" if h else f"eta {m}m{s:02d}s"


def _seconds(result: dict) -> float:
    return float(result.get("result", {}).get("duration_s") or 0.0)


# ---------------------------------------------------------------- outputs
def write_csv(rows: list[dict], path: Path) -> None:
    out = io.StringIO(newline="")
    if rows:
        w = csv.DictWriter(out, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    files.replace_file(path, out.getvalue().encode())  # a link at ``path`` is replaced, not written through


JOB_FIELDS = ("submission", "student", "exercise", "result")


def collect_jobs(results: Path, jobs: Path | None = None, skipped: list[str] | None = None) -> list[dict]:
    """Job results from a folder of ``grader job`` outputs (``*.json``, a batch queue's) or from a
    results log (``*.jsonl``, ``grader batch``'s); the latest result of each job counts.

    An output that is not one job result (empty, cut short: a job killed mid-write) is never the
    whole class's failure: where ``jobs`` holds its job file (the same name: ``jobs/3.json`` for
    ``results/3.json``) that job is graded again now and its output rewritten; otherwise it is
    skipped, and named in ``skipped``."""
    results = Path(results)
    skipped = [] if skipped is None else skipped
    if results.is_dir():
        outputs = sorted(results.glob("*.json"))
        if jobs is not None:  # a job with no output at all (never ran, lost): graded again from its file too
            outputs += [results / j.name for j in sorted(Path(jobs).glob("*.json")) if not (results / j.name).exists()]
        lines = [line for p in sorted(set(outputs)) if (line := _output(p, jobs, skipped)) is not None]
        lines += [line for p in sorted(results.glob("*.jsonl")) for line in read_log(p)]
    else:
        lines = read_log(results)
    latest: dict[str, dict] = {}
    for line in lines:
        latest[key_of(line)] = {k: line[k] for k in JOB_FIELDS}
    return list(latest.values())


def missing_jobs(job_results: list[dict]) -> list[tuple[str, str]]:
    """(student, exercise) of the class with no result among ``job_results``: the class is every
    folder beside the submissions graded (where that folder is readable here) and every student
    with a result, its exercises every exercise with a result."""
    order = {ex.id: i for i, ex in enumerate(catalog.CATALOG)}
    exercises = sorted({r["exercise"] for r in job_results}, key=order.__getitem__)
    students = {r["student"] for r in job_results}
    for parent in {Path(r["submission"]).parent for r in job_results}:
        with contextlib.suppress(OSError):
            if parent.is_dir():
                students |= {p.name for p in submissions_in(parent)}
    have = {(r["student"], r["exercise"]) for r in job_results}
    return [(s, e) for s in sorted(students) for e in exercises if (s, e) not in have]


def _output(path: Path, jobs: Path | None, skipped: list[str]) -> dict | None:
    if not path.exists() and jobs is not None:  # no output: graded again from its job file
        job = Path(jobs) / path.name
        line = run_job(json.loads(job.read_text()))
        files.replace_file(path, json.dumps(line).encode())
        skipped.append(f"{path} (missing): graded again from {job}")
        return line
    try:
        line = json.loads(files.read_regular(path, 64 << 20) or b"null")
    except (OSError, ValueError, files.Refused) as exc:
        line, why = None, f"{type(exc).__name__}: {exc}"
    else:
        why = "empty" if line is None else "not a job result"
    if isinstance(line, dict) and all(k in line for k in JOB_FIELDS) and isinstance(line["result"], dict):
        return line
    job = Path(jobs) / path.name if jobs is not None else None
    if job is not None and job.is_file():
        line = run_job(json.loads(job.read_text()))
        files.replace_file(path, json.dumps(line).encode())
        skipped.append(f"{path} ({why}): graded again from {job}")
        return line
    skipped.append(f"{path} ({why}): skipped; grade it again with `grader job <its job file> > {path}`")
    return None


def collect(results_dir: Path) -> list[dict]:
    """Rows from a folder of job results written by ``grader job`` (a batch queue's output)."""
    return summarize_class(collect_jobs(results_dir))
