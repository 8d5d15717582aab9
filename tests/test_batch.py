"""Class batch mode and its job interface (what a cluster engine would run)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grader import i18n
from grader.classroom import batch, raypool
from grader.course import catalog
from grader.course.catalog import ROOT
from tests.conftest import own_answer


def make_class(root):
    for student, source in [
        ("alice", "solutions/a3_broadcast.py"),
        ("bob", "exercises/a3_broadcast.py"),
        ("carol", "solutions/mutants/a3_broadcast/left_align.py"),
    ]:
        (root / student).mkdir(parents=True)
        own_answer(ROOT / source, root / student / "a3_broadcast.py", student)
    (root / "dave").mkdir()  # submitted nothing
    return root


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    return make_class(tmp_path_factory.mktemp("batch") / "class")


@pytest.fixture(scope="module")
def local_results(klass):
    """The class graded once by the local pool: what every other engine must agree with."""
    return batch.grade_class_jobs(klass, jobs=2, only=["A3"])


def test_grade_class_writes_levels(tmp_path, local_results):
    rows = batch.summarize_class(local_results)
    a = {r["student"]: r["A"] for r in rows}
    assert a == {"alice": 1, "bob": 0, "carol": 0, "dave": 0}
    batch.write_csv(rows, tmp_path / "levels.csv")
    assert (tmp_path / "levels.csv").read_text().splitlines()[0].startswith("student,level,pass_line")


def test_job_interface_round_trips_through_json(tmp_path, klass, local_results):
    """A batch queue runs `grader job job.json > result.json` per task, then collects."""
    jobs, results = tmp_path / "jobs", tmp_path / "results"
    subprocess.run(
        [sys.executable, "-m", "grader.cli", "batch", str(klass), "--only", "A3", "--write-jobs", str(jobs)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert sorted(json.loads(p.read_text())["submission"] for p in jobs.glob("*.json")) == sorted(
        j["submission"] for j in batch.make_jobs(batch.submissions_in(klass), only=["A3"])
    )
    results.mkdir()
    for job_file in sorted(jobs.glob("*.json")):  # one array task each: $SLURM_ARRAY_TASK_ID.json
        out = subprocess.run(
            [sys.executable, "-m", "grader.cli", "job", str(job_file)], capture_output=True, text=True, check=True
        ).stdout
        (results / job_file.name).write_text(out)
    rows = batch.collect(results)
    assert rows == batch.summarize_class(local_results)


TIMINGS = {"duration_s", "naming_cpu_s"}  # measured, not decided: they differ between any two runs


def verdicts(job_results: list[dict]) -> dict:
    """Everything a job decided, timings aside."""
    return {
        (r["student"], r["exercise"]): (
            r["result"]["status"],
            [{k: v for k, v in kp.items() if k not in TIMINGS} for kp in r["result"]["key_points"]],
        )
        for r in job_results
    }


def test_rerun_after_an_interruption_continues_from_the_log(tmp_path):
    klass = make_class(tmp_path / "class")
    log = tmp_path / "levels.jobs.jsonl"

    def interrupt(result, eta):
        raise KeyboardInterrupt  # Ctrl-C after the first job finished

    with pytest.raises(KeyboardInterrupt):
        batch.grade_class_jobs(klass, jobs=1, only=["A3"], log=log, on_job=interrupt)
    assert len(batch.read_log(log)) == 1
    with log.open("ab") as f:
        f.write(b'{"submission": "cut short by the interrup')  # a line the interruption cut
    (klass / "dave" / "a3_broadcast.py").write_text("def broadcast_shape(a, b):\n    return ()\n")  # dave hands in late
    first = batch.read_log(log)[0]
    graded_now = []
    results = batch.grade_class_jobs(
        klass,
        jobs=2,
        only=["A3"],
        log=log,
        on_job=lambda r, eta: graded_now.append((r["student"], eta.done, eta.total)),
    )
    assert first["student"] not in [s for s, _, _ in graded_now] and len(graded_now) == 3
    assert sorted(n for _, n, _ in graded_now) == [2, 3, 4] and {t for _, _, t in graded_now} == {4}
    assert {r["student"]: r["result"]["status"] for r in results}["dave"] == "graded"
    # The log now answers for every job: a third run grades nothing; a changed file is graded again.
    again = []
    assert (
        verdicts(batch.grade_class_jobs(klass, only=["A3"], log=log, on_job=lambda r, e: again.append(r)))
        == verdicts(results)
        and again == []
    )
    assert batch.summarize_class(batch.collect_jobs(log)) == batch.summarize_class(results)


def test_eta_costs_each_exercise_by_what_it_took():
    now = [0.0]
    jobs = [{"submission": f"/c/s{i}", "exercise": ex} for ex in ("P4", "A3") for i in range(4)]
    eta = batch.Eta(jobs, clock=lambda: now[0])
    assert eta.seconds_left() is None and eta.text() == "eta --"
    now[0] = 30.0  # two workers: two P4 jobs of 30 s each done after 30 s
    for i in range(2):
        eta.finished({"submission": f"/c/s{i}", "exercise": "P4", "result": {"duration_s": 30.0}})
    # left: 2 P4 at 30 s, 4 A3 at the fraction of its limit P4 used; parallelism 60/30 = 2
    a3 = 30.0 / catalog.get("P4").timeout_s * catalog.get("A3").timeout_s
    assert eta.seconds_left() == pytest.approx((2 * 30.0 + 4 * a3) / 2)
    now[0] = 62.0
    for i in range(2, 4):
        eta.finished({"submission": f"/c/s{i}", "exercise": "P4", "result": {"duration_s": 31.0}})
    eta.finished({"submission": "/c/s0", "exercise": "A3", "result": {"duration_s": 2.0}})
    assert eta.done == 5 and eta.seconds_left() == pytest.approx(3 * 2.0 / ((4 * 30.5 + 2.0) / 62.0))
    assert eta.text().startswith("eta 0m0")


def test_eta_of_a_resumed_run_counts_neither_the_warm_up_nor_unknown_costs():
    """Resumed: 2 P4 jobs left, each known from the log to take 30 s; the pool warms up for 12 s,
    then a 1 s A3 job finishes: about 60 s are left, not (busy 1 s / elapsed 13 s) parallelism's 13 minutes."""
    now = [0.0]
    pending = [{"submission": f"/c/s{i}", "exercise": "P4"} for i in range(2)] + [
        {"submission": "/c/s0", "exercise": "A3"}
    ]
    earlier = [{"submission": "/c/s9", "exercise": "P4", "result": {"duration_s": 30.0}}]
    eta = batch.Eta(pending, already=1, clock=lambda: now[0], earlier=earlier)
    now[0] = 13.0
    eta.finished({"submission": "/c/s0", "exercise": "A3", "result": {"duration_s": 1.0}})
    assert eta.seconds_left() == pytest.approx(2 * 30.0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def ray_head(tmp_path):
    """A local Ray head on 127.0.0.1 (2 CPUs, ports of its own, token auth off on loopback),
    stopped by its process group: never `ray stop`, which would stop every Ray on the machine."""
    pytest.importorskip("ray")
    port = _free_port()
    ports = {
        name: _free_port()
        for name in (
            "node-manager-port",
            "object-manager-port",
            "dashboard-port",
            "dashboard-agent-listen-port",
            "dashboard-agent-grpc-port",
            "runtime-env-agent-port",
            "metrics-export-port",
        )
    }
    temp = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))  # short: Ray's socket paths must fit
    env = {
        **os.environ,
        **raypool.LOCAL_HEAD_ENV,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    cmd = [
        str(Path(sys.executable).parent / "ray"),
        "start",
        "--head",
        "--block",
        "--node-ip-address=127.0.0.1",
        f"--port={port}",
        "--num-cpus=2",
        "--include-dashboard=false",
        "--disable-usage-stats",
        f"--temp-dir={temp}",
        *(f"--{k}={v}" for k, v in ports.items()),
    ]
    head = subprocess.Popen(
        cmd, env=env, start_new_session=True, stdout=(tmp_path / "ray.log").open("w"), stderr=subprocess.STDOUT
    )
    try:
        yield f"127.0.0.1:{port}", env
    finally:
        try:
            os.killpg(head.pid, signal.SIGKILL)  # the head, its GCS, raylet and workers: one group
        except ProcessLookupError:
            pass
        head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def test_ray_head_grades_like_the_local_pool(tmp_path, ray_head, klass, local_results):
    address, env = ray_head
    out = tmp_path / "levels.csv"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "grader.cli",
            "batch",
            str(klass),
            "--ray",
            address,
            "--only",
            "A3",
            "--out",
            str(out),
            "--report",
            str(tmp_path / "report"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:] + (tmp_path / "ray.log").read_text()[-3000:]
    assert "jobs (Ray at 127.0.0.1" in run.stdout
    on_ray = batch.collect_jobs(tmp_path / "levels.jobs.jsonl")
    assert verdicts(on_ray) == verdicts(local_results) and len(local_results) == 4
    assert batch.summarize_class(on_ray) == batch.summarize_class(local_results)
    assert out.read_text().splitlines()[0].startswith("student,level,pass_line")
    assert (tmp_path / "report" / "class-report.html").exists()


def test_an_empty_or_cut_short_job_result_is_skipped_named_and_graded_again(tmp_path, capsys):
    """One empty or truncated output of `grader job` (a job killed mid-write) must not cost the
    class its levels.csv: it is named, and where its job file is at hand, graded again."""
    from grader import cli
    from grader.engine import runner

    student = tmp_path / "class" / "ana"
    student.mkdir(parents=True)  # no modules: each job is a quick "missing"
    jobs, results = tmp_path / "jobs", tmp_path / "results"
    jobs.mkdir()
    results.mkdir()
    a3, a8 = catalog.get("A3"), catalog.get("A8")
    for i, ex in enumerate((a3, a8)):
        (jobs / f"{i}.json").write_text(json.dumps({"submission": str(student), "exercise": ex.id}))
    good = runner.uniform_result(a3, "passed", "")
    (results / "0.json").write_text(
        json.dumps({"submission": str(student), "student": "ana", "exercise": "A3", "result": good.to_dict()})
    )
    (results / "1.json").write_text('{"submission": "')  # cut short
    (results / "2.json").write_text("")  # empty, and no job file to grade it from
    out = tmp_path / "levels.csv"
    args = ["batch", "--collect", str(results), "--out", str(out), "--report", str(tmp_path / "report")]
    assert cli.main([*args, "--job-files", str(jobs)]) == 0
    said = capsys.readouterr().out
    assert out.exists() and "ana" in out.read_text()
    assert "1.json" in said and "graded again" in said, said
    assert "2.json" in said and "skipped" in said, said
    assert json.loads((results / "1.json").read_text())["exercise"] == "A8"  # rewritten: read whole next time


HANGS = "import time\n\n\ndef broadcast_shape(a, b):\n    time.sleep(3600)\n"


def test_ctrl_c_of_grader_batch_says_rerun_to_resume_and_the_rerun_resumes(tmp_path):
    """SIGINT to a real `grader batch` while a job is in flight (bob's answer hangs): one line in
    the reader's language, exit 130, no traceback; the job in flight is dropped, not logged; the
    same command again grades only what is not in the log."""
    klass = make_class(tmp_path / "class")
    (klass / "bob" / "a3_broadcast.py").write_text(HANGS)  # in flight when the interrupt comes
    out, log = tmp_path / "levels.csv", tmp_path / "levels.jobs.jsonl"
    cmd = [sys.executable, "-m", "grader.cli", "batch", str(klass), "--only", "A3", "--jobs", "1", "--out", str(out)]
    env = {**os.environ, "GRADER_LANG": "zh", "COLUMNS": "200"}
    run = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while not batch.read_log(log):  # alice's job (jobs run in name order) is logged; bob's hangs
            assert run.poll() is None, run.communicate()
            time.sleep(0.05)
        run.send_signal(signal.SIGINT)
        stdout, stderr = run.communicate(timeout=300)
    finally:
        run.kill()
    assert run.returncode == 130, stdout + stderr
    assert "Traceback" not in stdout + stderr and "KeyboardInterrupt" not in stderr, stderr
    assert "中断" in stdout and str(log) in stdout, stdout
    assert [line["student"] for line in batch.read_log(log)] == ["alice"]  # bob's hang was dropped
    (klass / "bob" / "a3_broadcast.py").write_text("def broadcast_shape(a, b):\n    return ()\n")
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    graded = [line["student"] for line in batch.read_log(log)]
    assert graded.count("alice") == 1 and sorted(graded) == ["alice", "bob", "carol", "dave"], graded


HANGS_ON_INCOMPATIBLE = """

import time as _time

_right = broadcast_shape


def broadcast_shape(a, b):
    try:
        return _right(a, b)
    except ValueError:
        _time.sleep(3600)  # a hang: the same code hangs on every run, whatever the machine's load
"""


def test_a_hang_whose_code_did_not_change_is_a_verdict_kept_until_fresh(tmp_path):
    """A call that sleeps past the catalog's limit waited for no CPU: its timeout is the code's,
    kept in the log and not graded again on a rerun (it cost its limit on every resume), unless
    --fresh."""
    klass = tmp_path / "class"
    (klass / "hana").mkdir(parents=True)
    own_answer(ROOT / "solutions" / "a3_broadcast.py", klass / "hana" / "a3_broadcast.py", "hana")
    with (klass / "hana" / "a3_broadcast.py").open("a") as f:
        f.write(HANGS_ON_INCOMPATIBLE)
    log = tmp_path / "levels.jobs.jsonl"
    [first] = batch.grade_class_jobs(klass, jobs=1, only=["A3"], log=log)
    hung = {kp["key_point"]: kp for kp in first["result"]["key_points"]}["raises_on_incompatible"]
    assert hung["status"] == "timeout" and hung["load_free"], hung
    graded = []
    again = batch.grade_class_jobs(klass, jobs=1, only=["A3"], log=log, on_job=lambda r, e: graded.append(r))
    assert graded == [] and verdicts(again) == verdicts([first])
    batch.grade_class_jobs(klass, jobs=1, only=["A3"], log=log, fresh=True, on_job=lambda r, e: graded.append(r))
    assert len(graded) == 1


def test_a_timeout_the_load_decided_is_not_a_verdict(tmp_path):
    """The measurement behind the rule above: a call that sleeps waited for no CPU (load_free); a
    busy call sharing one CPU with two busy processes waited most of its limit (not load_free,
    graded again as before)."""
    from grader.engine import cache
    from grader.engine.results import ExerciseResult, KeyPointResult
    from grader.isolation import procfs
    from grader.isolation.learner import Learner, LearnerTimeout

    path = tmp_path / "a3_broadcast.py"
    path.write_text(
        "import time\n\n\ndef sleeps():\n    time.sleep(3600)\n\n\ndef spins():\n    while True:\n        pass\n"
    )
    cpu = min(os.sched_getaffinity(0))
    rivals = [
        subprocess.Popen([sys.executable, "-c", f"import os; os.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"])
        for _ in range(2)
    ]
    handle = Learner("a3_broadcast", path, call_timeout_s=2.0)
    try:
        with pytest.raises(LearnerTimeout) as slept:
            handle.call("sleeps")
        assert slept.value.load_free, slept.value.waited_s
        handle.reset()
        handle._start()  # a fresh process, pinned to the rivals' CPU
        for tid in procfs.run_delays(handle._proc.pid):
            os.sched_setaffinity(tid, {cpu})
        with pytest.raises(LearnerTimeout) as starved:
            handle.call("spins")
        assert starved.value.waited_s is not None and not starved.value.load_free, starved.value.waited_s
    finally:
        handle.close()
        for r in rivals:
            r.kill()
            r.wait()
    kp = KeyPointResult("raises_on_incompatible", "timeout", "timed out")
    res = ExerciseResult("A3", "graded", [kp])
    assert not cache.reusable(res)
    kp.load_free = True
    assert cache.reusable(res)


def _twice_answered(folder: Path) -> Path:
    """A student who answered A3 twice: the right answer in a notebook's first A3 cell, a wrong one in
    a second cell (Copy + Paste, then edited), and set_A.ipynb only (no module file)."""
    import nbformat

    from grader.classroom import notebooks

    mark = notebooks.ANSWER_MARK.format(id="A3")
    right = (ROOT / "solutions" / "a3_broadcast.py").read_text() + "\nANSWERED_BY = 'twice'\n"
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(f"{mark}\n{right}"),
        nbformat.v4.new_code_cell(f"{mark}\ndef broadcast_shape(a, b):\n    return 'second'\n"),
    ]
    folder.mkdir(parents=True)
    (folder / "set_A.ipynb").write_text(nbformat.writes(nb))
    return folder


SECOND_CELL = "ignored a second A3 answer cell in set_A.ipynb: the first one, in set_A.ipynb, is graded"


def test_a_duplicated_answer_in_grader_batch_grades_the_first_and_says_so(tmp_path):
    """Issue 28: the same first-wins rule and note as Gradescope's (submission.gather: one function for both)."""
    from grader.engine.results import ExerciseResult

    _twice_answered(tmp_path / "class" / "ann")
    (job,) = batch.grade_class_jobs(tmp_path / "class", jobs=1, only=["A3"], log=tmp_path / "log.jsonl")
    res = ExerciseResult.from_dict(job["result"])
    assert all(kp.passed for kp in res.key_points), res
    assert SECOND_CELL in i18n.show(res.note, "en"), res.note
    again = batch.grade_class_jobs(tmp_path / "class", jobs=1, only=["A3"], log=tmp_path / "log.jsonl")
    assert again == [job]  # the same copy's fingerprint: resumed from the log, not graded again


def test_batch_reads_a_submission_without_gradescope_s_module(tmp_path):
    """gather() is its own module (grader.classroom.submission), not Gradescope's: batch and job
    read a submission through it without loading the Gradescope autograder."""
    _twice_answered(tmp_path / "ann")
    code = (
        "import sys; from pathlib import Path; from grader.classroom import batch\n"
        f"with batch.gathered(Path({str(tmp_path / 'ann')!r})) as (copy, notes):\n"
        "    assert (copy / 'a3_broadcast.py').is_file() and notes\n"
        "print('grader.classroom.gradescope' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False", out


def test_a_duplicated_answer_in_grader_job_grades_the_first_and_says_so(tmp_path, capsys):
    from grader import cli
    from grader.engine.results import ExerciseResult

    folder = _twice_answered(tmp_path / "class" / "ann")
    job_file = tmp_path / "0.json"
    job_file.write_text(json.dumps({"submission": str(folder), "exercise": "A3"}))
    assert cli.main(["job", str(job_file)]) == 0
    res = ExerciseResult.from_dict(json.loads(capsys.readouterr().out)["result"])
    assert all(kp.passed for kp in res.key_points) and SECOND_CELL in i18n.show(res.note, "en"), res


def test_a_job_s_verdict_names_the_submission_not_its_copy(tmp_path):
    """run_job grades a temporary copy (gather()): a traceback names the file as the student submitted
    it (its path in the submission), so two runs (here, on Ray, on another node) give the same verdict
    (the Ray test compares them)."""
    make_class(tmp_path / "class")
    job = {"submission": str(tmp_path / "class" / "carol"), "exercise": "A3"}
    first, second = batch.run_job(job), batch.run_job(job)
    assert verdicts([first]) == verdicts([second])
    said = " ".join(str(kp.get("traceback") or "") for kp in first["result"]["key_points"])
    assert 'File "a3_broadcast.py"' in said and "submission-" not in said and str(tmp_path) not in said, said
