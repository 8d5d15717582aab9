"""The class's jobs on a Ray cluster: the same :func:`grader.classroom.batch.run_job`, elsewhere.

One grading actor per worker (one CPU each). An actor warms up once, as ``grader batch`` does
here (:func:`grader.engine.runner.warm_up`: the check processes' fork server and the learners'
zygote, both with torch & co. imported), then grades job after job with the same sandboxed
runner; the driver keeps every actor busy, heaviest jobs first, and hands each result on as
soon as it arrives (so the results log and the progress bar see it at once). An actor that
dies (its node lost, killed for memory) costs its job only: that job is recorded as "process
died" (graded again on a rerun) and a fresh actor takes its place.

What each node needs: the project at the same path as on the driver, with its virtual
environment (the actors import ``grader`` from it), the class's submissions at the same path
(a shared file system), and root for the sandbox, as for ``make grade``. The driver passes its
``PYTHONPATH`` and the grader's own settings (model cache, result cache) on to the actors.
"""

from __future__ import annotations

import os
from collections.abc import Callable

# A Ray head started on this machine for a test or the bench: loopback only, so no token (Ray's
# default asks for one) and no usage report.
LOCAL_HEAD_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}

# Settings of the driver's environment that the actors must share.
PASSED_ON = ("PYTHONPATH", "TOOLBOX_GRADER_MODEL_CACHE", "GRADER_CACHE_DIR", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")


class _Grader:
    """A Ray actor: a warmed-up grading process that runs jobs one at a time."""

    def __init__(self, heavy: bool):
        from grader.engine import runner

        runner.warm_up(heavy=heavy)  # actor methods run on the process's main thread

    def run(self, job: dict) -> dict:
        from grader.classroom import batch

        return batch.run_job(job)

    def node(self) -> str:
        import socket

        return f"{socket.gethostname()}:{os.getpid()}"


def run(
    todo: list[dict], finished: Callable[[dict], None], *, address: str | None = None, workers: int | None = None
) -> None:
    """Grade ``todo`` on the cluster at ``address`` (None: ``RAY_ADDRESS``, else a local one)."""
    import ray

    env = {k: os.environ[k] for k in PASSED_ON if os.environ.get(k)}
    started_here = not ray.is_initialized()
    if started_here:
        kwargs = {"runtime_env": {"env_vars": env}} if env else {}
        ray.init(address=address, log_to_driver=False, **kwargs)
    try:
        n = max(1, min(len(todo), workers or int(ray.cluster_resources().get("CPU", 1))))
        actor = ray.remote(num_cpus=1)(_Grader)
        heavy = len(todo) > 2
        free = [actor.remote(heavy) for _ in range(n)]
        queue = list(todo)  # heaviest first, as make_jobs ordered them
        running: dict = {}
        while queue or running:
            while queue and free:
                a = free.pop()
                job = queue.pop(0)
                running[a.run.remote(job)] = (a, job)
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                a, job = running.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayActorError as exc:  # the process is gone: a new one
                    result = _failed(job, "crashed", f"the Ray worker grading it died: {_first_line(exc)}")
                    a = actor.remote(heavy)
                except ray.exceptions.RayError as exc:  # run_job raised: a grader bug, never a pass
                    result = _failed(job, "check_error", f"grading it raised on the Ray worker: {_first_line(exc)}")
                free.append(a)
                finished(result)
    finally:
        if started_here:
            ray.shutdown()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _failed(job: dict, status: str, message: str) -> dict:
    from pathlib import Path

    from grader.course import catalog
    from grader.engine import runner

    ex = catalog.get(job["exercise"])
    res = runner.uniform_result(ex, status, message)
    res.status = "crashed" if status == "crashed" else "graded"
    folder = Path(job["submission"])
    return {"submission": str(folder), "student": folder.name, "exercise": ex.id, "result": res.to_dict()}
