"""X1 — threads do not speed up CPU-bound Python, processes do. Ground truth: the check calls the
learner's run_threads, run_parallel and busy (the serial run) itself and measures each from
OUTSIDE the learner's process (which could fake any timing taken inside it): wall time on the
check's clock, CPU time from the kernel's accounting in /proc/<pid>/stat (``learner.cpu_times()``:
utime + stime = all threads of that process, cutime + cstime = its child processes once joined).
CPU time says where the work ran (that process or worker processes), CPU time / wall time says how
many cores it used at once — robust on a noisy, shared 2-core box, because the threads and
processes runs are compared within one experiment, interleaved. The results must equal busy(n)
computed here in closed form, and the serial run must cost at least half the CPU time of the
check's own busy loop (real CPU-bound work, not a shortcut). A speed-up that does not show is
measured again once; if the check's own reference experiment (its own busy loop, threads vs
processes, in this process) shows none either, the box is saturated and the key point is reported
not verifiable rather than failed — except for what load cannot hide: while run_parallel runs, the
check samples the CPU time (ns, /proc/<child>/schedstat) of the learner's live child processes every
20 ms; workers that never run together (``pool.apply`` in a loop) fail on any box, and workers seen
running together that still used too few cores are the box's load, not verifiable (part 1, the GIL).

Contract paths every run takes: tasks of two sizes [n, n/2, n, n/2] (results in task order, not
completion order), every returned list compared, the serial busy, threads and processes in one
interleaved experiment, processes watched while they run and accounted once joined."""

import functools
import multiprocessing
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import pytest
from hypothesis import Phase, given, settings, strategies as st

from grader.checks.support.checking import fail
from grader.i18n import N_, _
from grader.isolation import sandbox

N_WORKERS = 2
GIL_MAX_CORES = 1.3  # threads under the GIL: CPU / wall stays near 1 (or below, on a loaded box)
PROCESS_GAIN = 1.3  # processes must use >= 1.3x the cores the threads used
# ... and >= 1.3 cores at once in absolute terms (children's CPU time / wall): the threads run is
# the learner's too, and threads padded with sleep made one worker process look like a gain
PROCESS_CORES = 1.3
WHERE = 0.6  # at least 60% of the serial CPU time must be spent where the work is supposed to run
PERIOD = [i * i % 7 for i in range(7)]


def busy_value(n: int) -> int:
    """sum(i * i % 7 for i in range(n)) in closed form (i * i % 7 has period 7)."""
    return n // 7 * sum(PERIOD) + sum(PERIOD[: n % 7])


def _busy(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s


def reference_gain(tasks) -> float:
    """The check's own experiment: process parallelism / thread parallelism on this box now."""

    def par(fn):
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0

    serial = par(lambda: [_busy(n) for n in tasks])
    with ThreadPoolExecutor(N_WORKERS) as pool:
        threads = par(lambda: list(pool.map(_busy, tasks)))
    with multiprocessing.get_context("fork").Pool(N_WORKERS) as pool:
        procs = par(lambda: pool.map(_busy, tasks, chunksize=1))
    return (serial / procs) / (serial / threads)


WINDOW_S = 0.02  # live children's CPU time (ns, schedstat) is sampled in windows of this length
TOGETHER = 0.2  # parallel workers: the second busiest child gains >= 20% of the busiest one's CPU time per window
# (measured: ~0.5-0.7 for a Pool's map on a loaded 2-core box, ~0.02 for pool.apply in a loop)


def _sample_children(learner, stop: threading.Event, samples: list) -> None:
    while not stop.is_set():
        try:
            samples.append(learner.children_cpu())
        except (OSError, RuntimeError):
            return
        stop.wait(WINDOW_S)


def together(samples: list) -> float | None:
    """How much the learner's child processes ran AT THE SAME TIME: over the sampling windows, the
    CPU time the second busiest child gained / what the busiest gained (1: two children always ran
    together; ~0: one at a time, whatever the load). None: no child gained CPU time."""
    second = first = 0.0
    for a, b in pairwise(samples):
        gains = sorted((b[pid] - a.get(pid, b[pid]) for pid in b), reverse=True) + [0.0, 0.0]
        first, second = first + gains[0], second + gains[1]
    return second / first if first > 0 else None


def workers_busy(samples: list, min_cpu_s: float) -> int:
    """How many of the learner's child processes each gained >= ``min_cpu_s`` of CPU time over the
    samples (a helper such as multiprocessing's resource tracker gains far less). A child missed
    between two reads only lowers the count."""
    gained: dict = {}
    for a, b in pairwise(samples):
        for pid in b:
            gained[pid] = gained.get(pid, 0.0) + b[pid] - a.get(pid, b[pid])
    return sum(g >= min_cpu_s for g in gained.values())


def _workers_as_asked(learner, n) -> None:
    """run_parallel with fewer workers than this box has cores: a pool that ignores ``n_workers``
    (``Pool()`` starts os.cpu_count() workers) is caught by counting the child processes that did
    the work, whatever the load (the count, not the speed)."""
    import os

    cores = os.cpu_count() or 1
    asked = 1 if cores > 1 else 2  # differs from what Pool() would start on this box
    tasks = [n] * (asked + 1)
    learner.busy(0)  # the learner's process is started before the first reading
    run = _measured(learner, lambda: learner.run_parallel(asked, list(tasks), timeout_s=60), watch_children=True)
    if run["result"] != [busy_value(t) for t in tasks]:
        fail(
            _("run_parallel({asked}, {tasks}): results in task order", asked=asked, tasks=tasks),
            [busy_value(t) for t in tasks],
            run["result"],
        )
    busy = workers_busy(run["samples"], 0.5 * own_busy_cpu_s(n))
    if busy > asked:
        fail(
            _(
                "run_parallel(n_workers={asked}, {tasks} tasks): worker processes that "
                "did the work (each gained >= half a task's CPU time, sampled every "
                "{value:.0f} ms from /proc)",
                asked=asked,
                tasks=len(tasks),
                value=WINDOW_S * 1000,
            ),
            f"<= {asked} (n_workers)",
            _("{busy} worker processes", busy=busy),
            hint=_(
                "start exactly n_workers workers: Pool() without an argument starts "
                "os.cpu_count() of them / Pool() 不传参数时按 os.cpu_count() 启动进程，与 n_workers "
                "无关"
            ),
        )


def _measured(learner, call, watch_children: bool = False) -> dict:
    """Wall time on this clock; CPU time of the learner's process and its joined children, from
    /proc; with ``watch_children``, also how much its live children ran together (see together)."""
    samples: list = []
    stop = threading.Event()
    sampler = threading.Thread(target=_sample_children, args=(learner, stop, samples), daemon=True)
    if watch_children:
        sampler.start()
    before = learner.cpu_times()
    t0 = time.perf_counter()
    try:
        result = call()
    finally:
        stop.set()
    wall = time.perf_counter() - t0
    after = learner.cpu_times()
    if watch_children:
        sampler.join()
    return {
        "result": result,
        "wall_s": wall,
        "cpu_self_s": after["self_s"] - before["self_s"],
        "cpu_children_s": after["children_s"] - before["children_s"],
        "together": together(samples) if watch_children else None,
        "samples": samples,
    }


def _own_busy_once(n: int) -> float:
    t0 = time.process_time()
    _busy(n)
    return time.process_time() - t0


@functools.cache
def own_busy_cpu_s(n: int) -> float:
    """CPU seconds of the check's own busy(n) loop in this process (the least of 3 runs)."""
    return min(_own_busy_once(n) for _ in range(3))


def own_threads_run(tasks) -> dict:
    """The check's own serial and threads runs in this process (what run_threads is measured
    against when it fails): CPU time of each, and the threads' CPU time / wall time. A CPU-time
    ratio this reference does not meet now is load, not the learner's (reported not verifiable)."""
    c0 = time.process_time()
    for n in tasks:
        _busy(n)
    serial = time.process_time() - c0
    with ThreadPoolExecutor(N_WORKERS) as pool:
        t0, c0 = time.perf_counter(), time.process_time()
        list(pool.map(_busy, tasks))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"serial_cpu_s": serial, "threads_cpu_s": cpu, "threads_cores": cpu / wall}


def experiment(learner, tasks) -> dict:
    learner.busy(0)  # the learner's process is started before the first reading
    mark = sandbox.pauses()
    runs = {  # interleaved, so a burst of load hits all three alike
        "threads": _measured(learner, lambda: learner.run_threads(N_WORKERS, list(tasks), timeout_s=60)),
        "processes": _measured(
            learner, lambda: learner.run_parallel(N_WORKERS, list(tasks), timeout_s=60), watch_children=True
        ),
        "serial": _measured(learner, lambda: [learner.busy(n, timeout_s=60) for n in tasks]),
    }
    # another check stopped every learner uid meanwhile (its own measurement): these runs lost time
    runs["disturbed"] = sandbox.pauses() != mark
    want = [busy_value(n) for n in tasks]
    for kind, what in (
        ("serial", _("busy(n) for each task")),
        ("threads", "run_threads"),
        ("processes", "run_parallel"),
    ):
        if runs[kind]["result"] != want:
            fail(_("{what}: results in task order", what=what), want, runs[kind]["result"])
    floor = 0.5 * sum(own_busy_cpu_s(n) for n in tasks)
    # CPU time per loop varies with load (a busy sibling core): measure again now
    if runs["serial"]["cpu_self_s"] < floor:
        with learner.paused():
            floor = min(floor, 0.5 * sum(_own_busy_once(n) for n in tasks))
    if runs["serial"]["cpu_self_s"] < floor:
        fail(
            _(
                "busy(n) must be CPU-bound pure-Python work: {tasks} calls "
                "busy({tasks2}), CPU time of your process read from /proc",
                tasks=len(tasks),
                tasks2=tasks[0],
            ),
            _(">= {floor:.2f} s (half of the grader's own plain loop)", floor=floor),
            f"{runs['serial']['cpu_self_s']:.2f} s",
            hint=_("a plain `for i in range(n): s += i * i % 7` loop; no closed form, no NumPy"),
        )
    return runs


def _tasks(n):
    # Two sizes, so results in completion order (as_completed, imap_unordered) differ from task
    # order: the short second task finishes first. 3n of work, balanced over two workers.
    return [n, n // 2, n, n // 2]


DISTURBED = N_(
    "your processes were stopped during every measurement while another exercise's check measured "
    "(the grader pauses every learner's processes then): not verifiable now; grade X1 again"
)


@settings(max_examples=1, phases=(Phase.explicit, Phase.generate))  # seconds per example: no shrinking
@given(st.integers(1_500_000, 2_500_000))
def test_threads_cpu_use(learner, n):
    tasks = _tasks(n)
    problem = None
    for _try in range(3):
        run = experiment(learner, tasks)
        found = _threads_problem(run["serial"], run["threads"])
        if found is not None and found[0] == "children":  # child-process CPU time: no load or pause adds any
            problem = found
            break
        if run["disturbed"]:
            continue
        problem = found
        if problem is None:
            return
    if problem is None:  # every run was disturbed
        pytest.skip(_(DISTURBED))
    if problem[0] != "children":
        with learner.paused():  # the grader's own threads, on this box now
            own = own_threads_run(tasks)
        own_fails = (
            own["threads_cpu_s"] < WHERE * own["serial_cpu_s"]
            if problem[0] == "where"
            else own["threads_cores"] > GIL_MAX_CORES
        )
        if own_fails:
            pytest.skip(
                _(
                    "this machine is too busy to measure CPU time per thread: the grader's "
                    "own threads fail the same test now ({problem}); not verifiable here / "
                    "机器负载过高，评分器自己的线程此刻也不满足同一条件：此处无法验证",
                    problem=problem[1],
                )
            )
    fail(*problem[1:])


def _threads_problem(serial: dict, threads: dict):
    """What run_threads's measurements break, as (kind, what, expected, got, hint), or None."""
    if threads["cpu_self_s"] < WHERE * serial["cpu_self_s"]:
        return (
            "where",
            _("run_threads must do the work in threads of your process (its CPU time, read from /proc)"),
            _(">= {value:.2f} s of your process's CPU time", value=WHERE * serial["cpu_self_s"]),
            f"{threads['cpu_self_s']:.2f} s (children: {threads['cpu_children_s']:.2f} s)",
            "concurrent.futures.ThreadPoolExecutor",
        )
    if threads["cpu_children_s"] > (1 - WHERE) * serial["cpu_self_s"]:
        return (
            "children",
            _("run_threads must not hand the work to child processes (their CPU time, read from /proc)"),
            _("<= {limit:.2f} s of child-process CPU time", limit=(1 - WHERE) * serial["cpu_self_s"]),
            f"{threads['cpu_children_s']:.2f} s",
            _("concurrent.futures.ThreadPoolExecutor, not a process pool"),
        )
    cores = threads["cpu_self_s"] / threads["wall_s"]
    if cores > GIL_MAX_CORES:
        return (
            "cores",
            _(
                "{N_WORKERS} threads of CPU-bound Python used {cores:.2f} cores at once (CPU time / wall time)",
                N_WORKERS=N_WORKERS,
                cores=cores,
            ),
            _("<= {GIL_MAX_CORES}: the GIL lets one thread run bytecode at a time", GIL_MAX_CORES=GIL_MAX_CORES),
            round(cores, 2),
            _("busy() must be pure Python; NumPy or C code can release the GIL"),
        )
    return None


@settings(max_examples=1, phases=(Phase.explicit, Phase.generate))  # seconds per example: no shrinking
@given(st.integers(1_500_000, 2_500_000))
def test_parallel_cpu_use(learner, n):
    tasks = _tasks(n)
    _workers_as_asked(learner, n)
    for _try in range(3):
        run = experiment(learner, tasks)
        if run["disturbed"]:
            continue
        serial, threads, procs = run["serial"], run["threads"], run["processes"]
        if procs["cpu_children_s"] < WHERE * serial["cpu_self_s"]:
            fail(
                _("run_parallel must do the work in worker processes (their CPU time, once joined)"),
                _(">= {value:.2f} s of child-process CPU time", value=WHERE * serial["cpu_self_s"]),
                _(
                    "{cpu_children_s:.2f} s (your process: {cpu_self_s:.2f} s)",
                    cpu_children_s=procs["cpu_children_s"],
                    cpu_self_s=procs["cpu_self_s"],
                ),
                hint=_("multiprocessing.Pool(n_workers).map(busy, tasks); close and join the pool before returning"),
            )
        p_cores = procs["cpu_children_s"] / procs["wall_s"]
        t_cores = threads["cpu_self_s"] / threads["wall_s"]
        one_at_a_time = procs["together"] is not None and procs["together"] < TOGETHER
        if not one_at_a_time and p_cores >= PROCESS_GAIN * t_cores and p_cores >= PROCESS_CORES:
            return
    if run["disturbed"]:
        pytest.skip(_(DISTURBED))
    if one_at_a_time:  # read from /proc while it ran: holds on a saturated box too
        fail(
            _(
                "run_parallel: your worker processes must run AT THE SAME TIME (their "
                "CPU time, sampled every {value:.0f} ms from /proc while run_parallel "
                "ran)",
                value=WINDOW_S * 1000,
            ),
            _(
                ">= {TOGETHER} (the second busiest worker gains about as much CPU time as the busiest)",
                TOGETHER=TOGETHER,
            ),
            _("{together:.2f}: one worker at a time", together=procs["together"]),
            hint=_(
                "pool.map(busy, tasks) (or apply_async for all, then get); pool.apply blocks until each result is back"
            ),
        )
    if procs["together"] is not None:
        # seen from /proc running at the same time: what cores they lacked, the box's load took (a later
        # reference experiment on a quieter moment would blame the learner for it: CI, stop 34)
        pytest.skip(
            _(
                "your worker processes ran at the same time (together {together:.2f}, sampled from "
                "/proc) but used only {p_cores:.2f} cores at once: the other work on this machine "
                "took the rest; not verifiable here, grade X1 again on a quiet machine",
                together=procs["together"],
                p_cores=p_cores,
            )
        )
    with learner.paused():  # nothing the learner left running shares the cores with the grader's experiment
        gain = reference_gain(tasks)
    if gain < PROCESS_GAIN:
        pytest.skip(
            _(
                "this machine is saturated: even the grader's own processes used no more "
                "cores than threads (yours: processes {p_cores:.2f} vs threads "
                "{t_cores:.2f} cores); not verifiable here",
                p_cores=p_cores,
                t_cores=t_cores,
            )
        )
    if p_cores < PROCESS_CORES:
        fail(
            _(
                "{N_WORKERS} worker processes used {p_cores:.2f} cores at once (their "
                "CPU time / wall time, from /proc)",
                N_WORKERS=N_WORKERS,
                p_cores=p_cores,
            ),
            _(
                ">= {PROCESS_CORES} cores (each process has its own GIL; the grader's own processes use more here)",
                PROCESS_CORES=PROCESS_CORES,
            ),
            round(p_cores, 2),
            hint=_("as many workers as asked, one task per worker at a time; no lock around busy()"),
        )
    fail(
        _(
            "{N_WORKERS} worker processes used {p_cores:.2f} cores at once vs {t_cores:.2f} for {N_WORKERS} threads",
            N_WORKERS=N_WORKERS,
            p_cores=p_cores,
            t_cores=t_cores,
        ),
        _(">= {PROCESS_GAIN}x the threads' cores (each process has its own GIL)", PROCESS_GAIN=PROCESS_GAIN),
        f"{p_cores / t_cores:.2f}x",
        hint=_("one task per worker at a time (chunksize=1 for a few large tasks); no lock around busy()"),
    )
