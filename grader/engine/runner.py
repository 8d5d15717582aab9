"""Grade a target: every available exercise's checks in a process of its own.

``grade("exercises")`` grades the learner's folder, ``grade("solutions")`` the reference
answers; ``overrides={"A3": path}`` grades one exercise from another file (a mutant). One
exercise that does not import, raises, hangs or eats memory costs that exercise only.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Iterable

from grader.course import catalog
from grader.isolation import zygote
from grader.engine.cache import ResultCache
from grader.course.catalog import ROOT, Exercise
from grader.engine.results import ExerciseResult, KeyPointResult
from grader.isolation.sandbox import sweep_check


def resolve_target(target: str | Path) -> Path:
    """A target is a folder of exercise modules: 'exercises', 'solutions' or any path."""
    path = Path(target)
    if not path.is_absolute() and not path.exists() and (ROOT / path).exists():
        path = ROOT / path
    if not path.is_dir():
        raise FileNotFoundError(f"target folder {target!s} not found")
    return path.resolve()


def grade(target: str | Path = "exercises", *, only: Iterable[str] | None = None,
          overrides: dict[str, str | Path] | None = None, jobs: int | None = None,
          on_result: Callable[[ExerciseResult], None] | None = None,
          incremental: bool = False, in_process: bool = False) -> dict[str, ExerciseResult]:
    """Grade every catalog exercise (or those in ``only``); returns results keyed by id, in catalog order.

    ``incremental=True`` reuses the results of exercises whose fingerprint (learner code, the
    modules it imports, check, solution, grader, library versions) has not changed, and saves
    each new result as soon as it is known (see :mod:`grader.engine.cache`). ``in_process=True`` is
    the benchmark's baseline: no isolation, never used to grade anyone.
    """
    folder = resolve_target(target)
    overrides = {catalog.get(k).id: Path(v) for k, v in (overrides or {}).items()}
    wanted = {catalog.get(i).id for i in only} if only is not None else None
    selected = [ex for ex in catalog.CATALOG if wanted is None or ex.id in wanted]
    jobs = max(1, jobs or os.cpu_count() or 1)
    results: dict[str, ExerciseResult] = {}

    def done(res: ExerciseResult) -> None:
        results[res.exercise] = res
        if on_result:
            on_result(res)

    runnable = []
    for ex in selected:
        if not ex.available:
            done(ExerciseResult(ex.id, "not_available", note="not available yet"))
            continue
        module_file = overrides.get(ex.id, folder / f"{ex.module}.py")
        if not module_file.exists():
            done(uniform_result(ex, "missing", f"{module_file} not found", status="missing"))
            continue
        runnable.append((ex, module_file))
    cache = ResultCache(folder) if incremental else None
    if cache is not None:
        fingerprints = {ex.id: cache.fingerprint(ex, f) for ex, f in runnable}
        still = []
        for ex, f in runnable:
            hit = cache.get(ex, fingerprints[ex.id])
            if hit is not None:
                hit.cached = True
                done(hit)
            else:
                still.append((ex, f))
        runnable = still
    # Longest first, so the wall time stays close to the longest exercise.
    runnable.sort(key=lambda item: -item[0].timeout_s)
    if runnable:
        warm_up(heavy=len(runnable) > 2)
    threads = 1  # one torch thread per check process: the pool provides the parallelism

    def run(item):
        res = grade_exercise(*item, threads=threads, in_process=in_process)
        if cache is not None:
            cache.put(item[0], fingerprints[item[0].id], res)
        done(res)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(run, runnable))
    return {ex.id: results[ex.id] for ex in selected}


def uniform_result(ex: Exercise, kp_status: str, message: str, status: str = "graded") -> ExerciseResult:
    """Every key point of ``ex`` with the same status (a missing file, an interrupted run)."""
    return ExerciseResult(ex.id, status, [KeyPointResult(kp.id, kp_status, message) for kp in ex.key_points])


def grade_exercise(ex: Exercise, module_file: Path, *, threads: int = 1,
                   key_points: Iterable[str] | None = None, in_process: bool = False,
                   hidden: Iterable[Path] = (), name_mistakes: bool = True) -> ExerciseResult:
    """Run one exercise's checks in a fresh pytest process with a wall-clock limit.

    ``key_points`` restricts the run to those key points (the mutant harness uses it so a
    mutant of a heavy exercise runs only the checks that must catch it). ``name_mistakes=False``
    skips replaying a failed call against the registered wrong answers (grader/engine/misconceptions.py).
    """
    selected = [kp for kp in ex.key_points if key_points is None or kp.id in set(key_points)]
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"grade-{ex.id}-") as tmp:
        results_file = Path(tmp) / "results.jsonl"
        # Plugins by name only: entry-point plugins (anyio, ...) and the unraisable-exception
        # plugin's closing gc.collect() cost ~0.7 s per exercise with torch loaded.
        args = [str(ex.check_file), "-p", "grader.engine.plugin", "-p", "_hypothesis_pytestplugin",
                "-p", "no:unraisableexception",
               "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", str(ex.check_file.parent),
               "-c", os.devnull, "--exercise", ex.id, "--learner-file", str(module_file.resolve()),
               "--results", str(results_file), "--call-timeout", str(ex.call_timeout_s),
               "--import-timeout", str(ex.import_timeout_s), "--memory-gib", str(ex.memory_gib)]
        if in_process:  # benchmark baseline only
            args.append("--in-process")
        elif zygote.running():
            args += ["--zygote", zygote.running()]
        for path in hidden:
            args += ["--hide", str(Path(path).resolve())]
        if not name_mistakes:
            args.append("--no-misconceptions")
        if key_points is not None:
            args += ["-k", " or ".join(f"test_{kp.id}" for kp in selected) or "nothing"]
        log = Path(tmp) / "pytest.log"
        proc = _fork_server().Process(target=_check_process, args=(args, tmp, threads, str(log)), daemon=False)
        proc.start()
        status, note = "graded", ""
        try:
            proc.join(ex.timeout_s)
            if proc.is_alive():
                _kill_group(proc)
                status, note = "timeout", f"grading {ex.id} timed out after {ex.timeout_s:g} s"
        except BaseException:  # interrupted (Ctrl-C, a notebook cell timeout): leave nothing running
            _kill_group(proc)
            raise
        returncode = proc.exitcode
        sweep_check(proc.pid)  # whatever the learners left behind, even if their check died
        output = log.read_bytes() if log.exists() else b""
        records = _read_records(results_file)
    graded = {r["key_point"]: r for r in records}
    kps = []
    for kp in selected:
        r = graded.pop(kp.id, None)
        if r is None:
            why = note or _no_result_reason(returncode, output)
            kps.append(KeyPointResult(kp.id, "timeout" if status == "timeout" else "check_error", why))
            continue
        r.pop("at", None)
        kps.append(KeyPointResult(**r))
    for extra in graded:  # a test without a catalog key point is a maintainer's mistake
        kps.append(KeyPointResult(extra, "check_error", f"test_{extra} is not a key point of {ex.id} in the catalog"))
    return ExerciseResult(ex.id, status, kps, round(time.monotonic() - start, 2), note)


_SERVER_LOCK = threading.Lock()
_PRELOAD = ["grader.engine.preload_light"]


def warm_up(heavy: bool) -> None:
    """Choose what the check processes' fork server preloads (only effective before the first
    check process) and start the zygote the learners' processes fork from (grader/isolation/zygote.py).
    Call it from the main thread: the zygote lives as long as the thread that started it."""
    _PRELOAD[:] = ["grader.engine.preload_heavy" if heavy else "grader.engine.preload_light"]
    zygote.start("heavy" if heavy else "light")


def _fork_server():
    """Check processes fork from a server that has already imported pytest (and torch, ...)."""
    with _SERVER_LOCK:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(_PRELOAD))
        return ctx


def _check_process(pytest_args: list[str], cwd: str, threads: int, log_path: str) -> None:
    """Body of a check process: its own session (so a kill takes its learner too), pytest."""
    os.setsid()
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.chdir(cwd)
    os.environ.update(PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS=str(threads), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    if "torch" in sys.modules:  # preloaded; a check that imports it later reads OMP_NUM_THREADS
        sys.modules["torch"].set_num_threads(threads)
    import pytest

    code = pytest.main(pytest_args)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(int(code))


def _kill_group(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.join()


def _read_records(path: Path) -> list[dict]:
    if not path.exists():
        return []
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            continue  # a line cut short by a kill
    return records


def _no_result_reason(returncode: int | None, output: bytes | None) -> str:
    tail = (output or b"").decode(errors="replace").strip().splitlines()[-8:]
    return f"the check did not run (exit code {returncode}): " + " | ".join(tail)
