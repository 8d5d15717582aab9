"""Grade a target: every available exercise's checks in a process of its own.

``grade("exercises")`` grades the learner's folder, ``grade("solutions")`` the reference
answers; ``overrides={"A3": path}`` grades one exercise from another file (a mutant). One
exercise that does not import, raises, hangs or eats memory costs that exercise only.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import json
import multiprocessing
import multiprocessing.forkserver
import multiprocessing.util
import os
import resource
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path

from grader import i18n
from grader.course import catalog
from grader.course.catalog import ROOT, Exercise
from grader.engine import similarity, stubs
from grader.engine.cache import ResultCache, regrade_only
from grader.engine.results import SAID, STATUS_TEXT, ExerciseResult, KeyPointResult, key_point_from
from grader.i18n import _
from grader.isolation import files, sandbox, zygote
from grader.isolation.learner import no_wall_message, unreachable_python_message
from grader.isolation.sandbox import reference_visible, sweep_check


def resolve_target(target: str | Path) -> Path:
    """A target is a folder of exercise modules: 'exercises', 'solutions' or any path. Made
    absolute, links not resolved: what the learner may see is decided from the path asked for."""
    path = Path(target)
    if not path.is_absolute() and not path.exists() and (ROOT / path).exists():
        path = ROOT / path
    if not path.is_dir():
        raise FileNotFoundError(_("target folder {target} not found", target=str(target)))
    return Path(os.path.abspath(path))


def grade(
    target: str | Path = "exercises",
    *,
    only: Iterable[str] | None = None,
    overrides: dict[str, str | Path] | None = None,
    jobs: int | None = None,
    on_result: Callable[[ExerciseResult], None] | None = None,
    incremental: bool = False,
    fresh: bool = False,
    in_process: bool = False,
    hidden: Iterable[Path] = (),
) -> dict[str, ExerciseResult]:
    """Grade every catalog exercise (or those in ``only``); returns results keyed by id, in catalog order.

    ``incremental=True`` keeps the learner's record (:mod:`grader.engine.cache`): each new result
    is saved as soon as it is known; an exercise whose fingerprint (learner code, the modules it
    imports, check and the grader modules it imports, solution, library versions) has not
    changed is not graded again unless ``fresh``; and the answer covers the whole catalog, an
    exercise outside ``only`` showing its latest result for its current fingerprint, or
    "not_graded". Results not graded in this run have ``cached`` set. An untouched stub
    (:func:`grader.engine.stubs.untouched`) is not run: its result is certain (every key point
    "not implemented"), recorded as a graded one. ``on_result`` hears of
    the exercises in ``only`` alone. ``in_process=True`` is the benchmark's baseline: no
    isolation, never used to grade anyone. ``hidden``: folders the learners' processes must not
    see beside the usual ones (the classroom hides the course folder: classmates' submissions).
    """
    folder = resolve_target(target)
    hidden = list(hidden)
    overrides = {catalog.get(k).id: Path(v) for k, v in (overrides or {}).items()}
    wanted = {catalog.get(i).id for i in only} if only is not None else {ex.id for ex in catalog.CATALOG}
    jobs = max(1, jobs or os.cpu_count() or 1)
    cache = ResultCache(folder) if incremental else None
    results: dict[str, ExerciseResult] = {}

    def done(res: ExerciseResult) -> None:
        results[res.exercise] = res
        if on_result and res.exercise in wanted:
            on_result(res)

    runnable, fingerprints, partial = [], {}, {}
    for ex in catalog.CATALOG:
        if ex.id not in wanted and cache is None:
            continue
        module_file = overrides.get(ex.id, folder / f"{ex.module}.py")
        if not ex.available:
            done(ExerciseResult(ex.id, "not_available", note=_("not available yet")))
        elif not module_file.exists():
            done(uniform_result(ex, "missing", _("{module_file} not found", module_file=module_file), status="missing"))
        elif (
            ex.id in overrides
            and folder.resolve() != (ROOT / "solutions").resolve()
            and _override_is_the_reference(ex, module_file)
        ):
            # decided by content, never by the path given: a reference answer earns a learner no credit
            done(
                uniform_result(
                    ex,
                    "identical",
                    _(
                        "{name} is the reference answer (solutions/{module}.py): no credit in a learner's grade",
                        name=module_file.name,
                        module=ex.module,
                    ),
                )
            )
        elif cache is None:
            if stubs.untouched(ex, module_file):  # certain without running: every function raises
                done(stubs.untouched_result(ex))
            else:
                runnable.append((ex, module_file))
        else:
            fingerprints[ex.id] = cache.fingerprint(ex, module_file)
            hit = cache.get(ex, fingerprints[ex.id])
            again = None if hit is None or fresh else regrade_only(hit, ex)
            if ex.id in wanted and (again is None or again) and stubs.untouched(ex, module_file):
                res = stubs.untouched_result(ex)  # recorded like a graded result: shown "earlier" next time
                cache.put(ex, fingerprints[ex.id], res)
                done(res)
            elif ex.id in wanted and (again is None or again):
                runnable.append((ex, module_file))
                if again:  # only the key points the load left unverified; the rest stands
                    partial[ex.id] = (hit, again)
            elif hit is None:
                done(ExerciseResult(ex.id, "not_graded", note=_("no result recorded for its current code and checks")))
            else:
                hit.cached = True
                done(hit)
    # Longest first, so the wall time stays close to the longest exercise; a few key points
    # graded again count as light.
    runnable.sort(key=lambda item: (item[0].id not in partial, item[0].timeout_s), reverse=True)
    if runnable:
        warm_up(heavy=len(runnable) - len(partial) > 2)
    threads = 1  # one torch thread per check process: the pool provides the parallelism

    def run(item):
        if item[0].id in partial:
            hit, again = partial[item[0].id]
            res = merged(
                hit, grade_exercise(*item, threads=threads, in_process=in_process, hidden=hidden, key_points=again)
            )
        else:
            res = grade_exercise(*item, threads=threads, in_process=in_process, hidden=hidden)
        if _STOPPING.is_set():  # killed by an interrupt: no verdict of its code, nothing kept
            return
        if cache is not None:
            cache.put(item[0], fingerprints[item[0].id], res)
        done(res)

    in_pool(run, runnable, lambda _: None, jobs=jobs)
    return {ex.id: results[ex.id] for ex in catalog.CATALOG if ex.id in results}


def merged(earlier: ExerciseResult, again: ExerciseResult) -> ExerciseResult:
    """``earlier`` with the key points graded ``again`` replaced (the run that graded them decides
    the exercise's status: a timeout there is this run's timeout)."""
    now = {k.key_point: k for k in again.key_points}
    kps = [now.get(k.key_point, k) for k in earlier.key_points]
    return ExerciseResult(
        earlier.exercise, again.status, kps, again.duration_s, again.note, similarity=again.similarity
    )


def uniform_result(ex: Exercise, kp_status: str, message: str, status: str = "graded") -> ExerciseResult:
    """Every key point of ``ex`` with the same status (a missing file, an interrupted run)."""
    return ExerciseResult(ex.id, status, [KeyPointResult(kp.id, kp_status, message) for kp in ex.key_points])


def grade_exercise(
    ex: Exercise,
    module_file: Path,
    *,
    threads: int = 1,
    key_points: Iterable[str] | None = None,
    in_process: bool = False,
    hidden: Iterable[Path] = (),
    name_mistakes: bool = True,
    shrink: bool = True,
) -> ExerciseResult:
    """Run one exercise's checks in a fresh pytest process with a wall-clock limit.

    ``key_points`` restricts the run to those key points (the mutant harness uses it so a
    mutant of a heavy exercise runs only the checks that must catch it). The learner's folder
    is read once, into the check's own folder (:func:`grader.isolation.files.snapshot_modules`);
    everything after that, the check included, works on that copy. ``name_mistakes=False`` skips
    replaying a failed call against the registered wrong answers (grader/engine/misconceptions.py);
    ``shrink=False`` reports a failure on the input that first showed it, not the smallest one.
    """
    selected = [kp for kp in ex.key_points if key_points is None or kp.id in set(key_points)]
    wall = sandbox.wall_required()  # read here, at each exercise: the check process may be older
    if wall and not in_process and sandbox.isolation_level() not in sandbox.WALLS:
        return _every(ex, selected, "refused", no_wall_message())  # every mode comes through here
    if not in_process and sandbox.isolation_level() == sandbox.LANDLOCK:  # no namespace binds Python in
        closed = sandbox.interpreter_out_of_reach()
        if closed:
            return _every(ex, selected, "refused", unreachable_python_message(closed))
    start = time.monotonic()
    requested = Path(os.path.abspath(module_file))  # as asked for: what to hide is decided from this
    visible = reference_visible(requested)
    with tempfile.TemporaryDirectory(prefix=f"grade-{ex.id}-") as tmp:
        try:  # the file must be the learner's: not a link, not (through a linked folder) the grader's
            copy = files.snapshot_modules(
                requested, Path(tmp) / "learner", not_inside=() if visible else (ROOT / "solutions", ROOT / "grader")
            )
        except files.Refused as exc:
            return _every(ex, selected, "refused", str(exc))
        except OSError as exc:
            return _every(ex, selected, "refused", _("{name} cannot be read: {exc}", name=requested.name, exc=exc))
        if not visible and _is_the_reference(ex, copy.read_bytes()):
            return _every(
                ex,
                selected,
                "identical",
                _(
                    "{name} is identical to the reference answer (solutions/{module}.py): no credit for a copy",
                    name=requested.name,
                    module=ex.module,
                ),
            )
        # Not exact: graded as it is, with how much of the reference it has (a near copy is
        # reported beside the verdict; what follows is the course's to decide: docs/security.md).
        match = (
            None
            if visible
            else similarity.against_reference(
                ex.module,
                similarity.with_helpers(copy, ex.module),
                written=copy.read_bytes(),
                helpers=similarity.helpers_opaque(copy),
            )
        )
        results_file = Path(tmp) / "results.jsonl"
        # Plugins by name only: entry-point plugins (anyio, ...) and the unraisable-exception
        # plugin's closing gc.collect() cost ~0.7 s per exercise with torch loaded.
        args = [
            str(ex.check_file),
            "-p",
            "grader.engine.plugin",
            "-p",
            "_hypothesis_pytestplugin",
            "-p",
            "no:unraisableexception",
            "-q",
            # The plugin reads the verdict from the exception, never pytest's traceback text: building
            # that (the source of every frame, and Hypothesis's copy of it) was half of a failing check's CPU.
            "--tb",
            os.environ.get("GRADER_CHECK_TB", "no"),
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--rootdir",
            str(ex.check_file.parent),
            "-c",
            os.devnull,
            "--exercise",
            ex.id,
            "--learner-file",
            str(copy),
            "--learner-shown-as",
            str(requested),
            "--results",
            str(results_file),
            "--call-timeout",
            str(ex.call_timeout_s),
            "--import-timeout",
            str(ex.import_timeout_s),
            "--memory-gib",
            str(ex.memory_gib),
        ]
        args += ["--wall", "required" if wall else "optional"]
        if visible:
            args.append("--reference-visible")
        if in_process:  # benchmark baseline only
            args.append("--in-process")
        elif zygote.running():
            args += ["--zygote", zygote.running()]
        for path in hidden:
            args += ["--hide", str(Path(path).resolve())]
        if not name_mistakes:
            args.append("--no-misconceptions")
        if not shrink:
            args.append("--no-shrink")
        if key_points is not None:
            args += ["-k", " or ".join(f"test_{kp.id}" for kp in selected) or "nothing"]
        log = Path(tmp) / "pytest.log"
        proc = _fork_server().Process(target=_check_process, args=(args, tmp, threads, str(log)), daemon=False)
        proc.start()
        with _RUNNING_LOCK:
            _RUNNING.add(proc)
            stopping = _STOPPING.is_set()  # stop_running sets it before it lists what runs
        status, note = "graded", ""
        try:
            if stopping:  # the interrupt came while it started: stopped like the others
                _kill_group(proc)
            proc.join(ex.timeout_s)
            if proc.is_alive():
                _kill_group(proc)
                status, note = (
                    "timeout",
                    _("grading {id} timed out after {timeout_s:g} s", id=ex.id, timeout_s=ex.timeout_s),
                )
        except BaseException:  # interrupted (Ctrl-C, a notebook cell timeout): leave nothing running
            _kill_group(proc)
            raise
        finally:
            with _RUNNING_LOCK:
                _RUNNING.discard(proc)
        returncode = proc.exitcode
        sweep_check(proc.pid)  # whatever the learners left behind, even if their check died
        output = files.read_tail(log, LOG_TAIL)
        try:
            graded = read_results(
                files.read_tail(results_file, RESULTS_CAP, whole=True), ex, cut_short=status == "timeout"
            )
        except ValueError as exc:  # never a pass: something other than the plugin wrote there
            return ExerciseResult(
                ex.id,
                status,
                [KeyPointResult(kp.id, "check_error", _("results not trusted: {exc}", exc=exc)) for kp in selected],
                round(time.monotonic() - start, 2),
                note,
            )
    kps = []
    for kp in selected:
        r = graded.pop(kp.id, None)
        if r is None:
            why = note or _no_result_reason(returncode, output)
            kps.append(KeyPointResult(kp.id, "timeout" if status == "timeout" else "check_error", why))
            continue
        r.pop("at", None)
        kps.append(key_point_from(r))
    return ExerciseResult(
        ex.id, status, kps, round(time.monotonic() - start, 2), note, similarity=match.to_dict() if match else {}
    )


LOG_TAIL = 64 << 10  # bytes of the check process's own output kept for a "did not run" message
RESULTS_CAP = 64 << 20  # a results file larger than this was not written by the plugin alone


def _every(ex: Exercise, selected, status: str, message: str) -> ExerciseResult:
    return ExerciseResult(ex.id, "graded", [KeyPointResult(kp.id, status, message) for kp in selected])


def _override_is_the_reference(ex: Exercise, module_file: Path) -> bool:
    try:
        return _is_the_reference(ex, files.read_regular(module_file))
    except (OSError, files.Refused):
        return False


def _is_the_reference(ex: Exercise, source: bytes) -> bool:
    """The learner's module and the reference answer have the same syntax tree, comments,
    docstrings and layout aside (a verbatim copy, reformatted or re-commented)."""

    def bare_string(stmt) -> bool:
        return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)

    def tree(src: bytes) -> str:
        module = ast.parse(src)
        for node in ast.walk(module):
            body = getattr(node, "body", None)
            if isinstance(body, list) and any(map(bare_string, body)):
                node.body = [s for s in body if not bare_string(s)] or [ast.Pass()]
        return ast.dump(module, annotate_fields=False)

    try:
        return tree(source) == tree(files.read_regular(ROOT / "solutions" / f"{ex.module}.py"))
    except (SyntaxError, ValueError, OSError, RecursionError, MemoryError, SystemError):  # graded as it is, then
        return False


_FIELDS = {f.name: f.type for f in dataclasses.fields(KeyPointResult)}
_CHECK_STATUSES = set(STATUS_TEXT) - {"not_available", "missing", "refused", "identical"}


def read_results(data: bytes, ex: Exercise, *, cut_short: bool = False) -> dict[str, dict]:
    """The plugin's records by key point. A line that is not one well-formed record of a key
    point of ``ex``, or a second record of one, raises ValueError: the exercise is then a check
    error. A last line without its newline is a record cut short by the kill when ``cut_short``."""
    lines = data.split(b"\n")
    if lines.pop() and not cut_short:
        raise ValueError(_("the results file ends in the middle of a line"))
    known = {kp.id for kp in ex.key_points}
    records: dict[str, dict] = {}
    for n, line in enumerate(lines, 1):
        try:
            r = json.loads(line)
        except ValueError:
            raise ValueError(_("line {n} is not JSON", n=n)) from None
        if not (
            isinstance(r, dict)
            and set(r) <= {*_FIELDS, "at"}
            and r.get("status") in _CHECK_STATUSES
            and all(_well_typed(k, v) for k, v in r.items())
        ):
            raise ValueError(_("line {n} is not a key-point record", n=n))
        if r["key_point"] not in known:
            raise ValueError(
                _(
                    "line {n}: {key_point} is not a key point of {id} in the catalog",
                    n=n,
                    key_point=repr(r["key_point"]),
                    id=ex.id,
                )
            )
        if r["key_point"] in records:
            raise ValueError(_("line {n}: a second record for {key_point}", n=n, key_point=r["key_point"]))
        records[r["key_point"]] = r
    return records


def _well_typed(key: str, value) -> bool:
    if key in ("duration_s", "at", "naming_cpu_s"):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if key == "figures":
        return isinstance(value, list)
    if key == "load_free":
        return isinstance(value, bool)
    if key in SAID and i18n.is_data(value):  # a message of the catalog (grader.i18n.Message.data)
        return _well_typed_message(value)
    if key in ("expected", "got"):
        return value is None or isinstance(value, str)
    return isinstance(value, str)


def _well_typed_message(value) -> bool:
    """Message data (grader.i18n.Message.data): fields of plain values, messages, or text in both languages."""
    return all(
        isinstance(k, str) and (_field_ok(v) if isinstance(v, dict) else isinstance(v, str | int | float | None))
        for k, v in value["fields"].items()
    )


def _field_ok(value: dict) -> bool:
    if i18n.is_data(value):
        return _well_typed_message(value)
    return set(value) == set(i18n.LANGS) and all(isinstance(v, str) for v in value.values())


_SERVER_LOCK = threading.Lock()
_PRELOAD = ["grader.engine.preload_light"]


def warm_up(heavy: bool) -> None:
    """Choose what the check processes' fork server preloads (only effective before the first
    check process) and start the zygote the learners' processes fork from (grader/isolation/zygote.py).
    Call it from the main thread: the zygote lives as long as the thread that started it."""
    _PRELOAD[:] = ["grader.engine.preload_heavy" if heavy else "grader.engine.preload_light"]
    # A terminal's Ctrl-C reaches the whole foreground group: the servers started now ignore it (the
    # grader stops them), so an interrupt prints no traceback of theirs from the middle of an import.
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        zygote.start("heavy" if heavy else "light")
        multiprocessing.forkserver.set_forkserver_preload(list(_PRELOAD))
        multiprocessing.forkserver.ensure_running()
    finally:
        if main:
            signal.signal(signal.SIGINT, before)


def _fork_server():
    """Check processes fork from a server that has already imported pytest (and torch, ...)."""
    with _SERVER_LOCK:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(_PRELOAD))
        return ctx


def _check_process(pytest_args: list[str], cwd: str, threads: int, log_path: str) -> None:
    """Body of a check process: its own session (so a kill takes its learner too), pytest."""
    os.setsid()
    _cap_address_space()
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_NOFOLLOW, 0o600)
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
    # os._exit skips atexit, where multiprocessing unlinks what it made here: a fork-server child's
    # locks (a tqdm bar's, as transformers builds the model cache) are named semaphores of the
    # grader's resource tracker, reported leaked when `grader grade` exits unless released now.
    multiprocessing.util._run_finalizers(0)
    os._exit(int(code))


# The check process's own address-space cap: a frame that decodes to far more than it carries
# (grader/inside/codec.py budgets that too) costs its exercise only, never the machine. Measured
# peak (VmPeak) of the heaviest check processes on CPU: P4 and X5 ~2 GiB (they train SmolLM2 in the
# check's own process), the others under 1 GiB.
CHECK_ADDRESS_SPACE = 6 << 30


def _cap_address_space() -> None:
    """RLIMIT_AS on the check process, except where an NVIDIA driver is present: a CUDA context
    reserves tens of GiB of address space it never uses (the codec's budgets still apply there)."""
    if os.path.exists("/dev/nvidiactl"):
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = CHECK_ADDRESS_SPACE if hard == resource.RLIM_INFINITY else min(CHECK_ADDRESS_SPACE, hard)
    if soft == resource.RLIM_INFINITY or soft > cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


# The check processes in flight, for stop_running: a Ctrl-C reaches the main thread only, while
# the pool's threads wait on their check processes (each in a session of its own).
_RUNNING: set = set()
_RUNNING_LOCK = threading.Lock()


_STOPPING = threading.Event()  # set by stop_running: what a killed check process returns is no verdict


def in_pool(work: Callable, todo: Iterable, finished: Callable, *, jobs: int) -> None:
    """``work(item)`` for each item, ``jobs`` at a time, each result handed to ``finished`` as soon as
    it is known. Interrupted (Ctrl-C), the jobs in flight are killed and those not started dropped
    at once, not when the slowest would have ended; the exception goes on to the caller."""
    _STOPPING.clear()
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        futures = {pool.submit(work, item) for item in todo}
        while futures:
            ready, futures = wait(futures, return_when=FIRST_COMPLETED)
            for f in ready:
                finished(f.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop_running()
        raise
    pool.shutdown()


def stop_running() -> None:
    """Kill every check process in flight (and its learners): the threads waiting on them return
    at once, so an interrupted pool exits now, not when its slowest job would have ended."""
    _STOPPING.set()
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for proc in running:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:  # not yet the leader of its own session: the process alone
            with contextlib.suppress(ProcessLookupError, ValueError):
                proc.kill()
        except ValueError:  # not started
            pass


def _kill_group(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:  # not yet the leader of its own session: the process alone
        proc.kill()
    proc.join()


def _no_result_reason(returncode: int | None, output: bytes | None) -> i18n.Text:
    tail = (output or b"").decode(errors="replace").strip().splitlines()[-8:]
    return _("the check did not run (exit code {code}): {tail}", code=returncode, tail=" | ".join(tail))
