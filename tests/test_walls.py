"""Walls that hold where the grader may not make namespaces (issue 27 §4): a container started
with Docker's default capabilities, simulated as the examiner did, by running the grader as
root under ``setpriv --bounding-set=-sys_admin`` (``unshare`` is then refused). The learner's
process gets the allowlist through Landlock, says which level it got, and where no file-system
wall can be had, nothing is graded unless ``GRADER_ALLOW_UNSANDBOXED=1``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from grader.course.catalog import ROOT
from grader.isolation import landlock, sandbox

SETPRIV = shutil.which("setpriv")
pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or SETPRIV is None or landlock.abi() < 1,
    reason="needs root, setpriv and a kernel with Landlock",
)

# Without a mount namespace the learner reaches Python through the host's permissions only: where
# a folder on the way is closed (Python under /root, 0700), every grade is refused up front (runner).
# The test opens that folder to others (0711) in a mount namespace of its own, so the container it
# simulates is one where Python is reachable, and the host's /root is never changed.
CLOSED = sandbox.interpreter_out_of_reach()
UNSHARE = shutil.which("unshare")
REACHABLE_PYTHON = pytest.mark.skipif(
    CLOSED is not None and UNSHARE is None,
    reason=f"Python is out of a learner uid's reach here ({CLOSED}) and unshare is missing: graded nowhere",
)
# $1: the closed folder, $2: an empty folder to keep the original in; then the command.
OPEN_CLOSED = r"""set -e
closed=$1 keep=$2; shift 2
mount --bind "$closed" "$keep"
mount -t tmpfs -o mode=0711 tmpfs "$closed"
for entry in "$keep"/* "$keep"/.[!.]*; do
  [ -e "$entry" ] || continue
  name="$closed/${entry##*/}"
  if [ -d "$entry" ]; then mkdir "$name"; else touch "$name"; fi
  mount --bind "$entry" "$name"
done
exec "$@"
"""


def _no_sys_admin(tmp_path, script) -> list[str]:
    """The command that runs ``script`` as root without CAP_SYS_ADMIN (Docker's default set)."""
    cmd = [SETPRIV, "--bounding-set=-sys_admin", "--inh-caps=-sys_admin", sys.executable, str(script)]
    if CLOSED is None:
        return cmd
    keep = tmp_path / "closed-folder"
    keep.mkdir()
    return [UNSHARE, "--mount", "--propagation", "private", "sh", "-c", OPEN_CLOSED, "sh", CLOSED, str(keep), *cmd]


# What the examiner's attempt read: a check, a solution, the engine.
SECRETS = [
    ROOT / "solutions" / "a3_broadcast.py",
    ROOT / "grader" / "checks" / "test_a3_broadcast.py",
    ROOT / "grader" / "engine" / "runner.py",
]
READER = f"""
    import os
    seen = []
    for p in {[str(p) for p in SECRETS]!r}:
        try:
            with open(p) as f:
                f.read(1)
            seen.append(p)
        except OSError:
            pass
    def broadcast_shape(a, b):
        raise ValueError("read " + repr(seen))
    """

GRADE = """
import json, os, sys
from grader.course import catalog
from grader.engine import runner
from grader.isolation import sandbox

if __name__ == "__main__":
    runner.warm_up(heavy=sys.argv[1] == "heavy")
    out = {"level": sandbox.isolation_level()}
    for item in sys.argv[2:]:
        ex_id, _, path = item.partition("=")
        res = runner.grade_exercise(catalog.get(ex_id), path)
        out[item] = [(k.status, k.message[:600], k.isolation) for k in res.key_points]
    print("RESULT " + json.dumps(out))
"""


def _without_sys_admin(tmp_path, heavy: bool, *items: str, env: dict | None = None) -> dict:
    script = tmp_path / "grade.py"
    script.write_text(GRADE)
    cmd = _no_sys_admin(tmp_path, script)
    run = subprocess.run(
        [*cmd, "heavy" if heavy else "light", *items],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=600,
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, run.stdout[-2000:] + run.stderr[-3000:]
    return json.loads(lines[-1].removeprefix("RESULT "))


@REACHABLE_PYTHON
def test_without_cap_sys_admin_the_learner_reads_no_check_solution_or_engine(tmp_path):
    attempt = tmp_path / "a3_broadcast.py"
    attempt.write_text(textwrap.dedent(READER))
    out = _without_sys_admin(tmp_path, False, f"A3={attempt}")
    assert out["level"] == sandbox.LANDLOCK, out
    kps = out[f"A3={attempt}"]
    assert any("read []" in message for _, message, _ in kps), kps
    assert not any("read ['" in message for _, message, _ in kps), kps
    assert {level for _, _, level in kps} == {sandbox.LANDLOCK}, "the level measured in the learner's setup"


# Issue 27 L1: Landlock's right to list a folder holds beneath it, so listing the project's root
# (for the import system) showed the names under solutions/ and the checks (the misconceptions).
FOLDERS = [ROOT, ROOT / "solutions", ROOT / "solutions" / "mutants", ROOT / "grader" / "checks", ROOT / "grader"]
LISTER = f"""
    import os
    listed = []
    for p in {[str(p) for p in FOLDERS]!r}:
        try:
            os.listdir(p)
            listed.append(p)
        except OSError:
            pass
    def broadcast_shape(a, b):
        raise ValueError("listed " + repr(listed))
    """


@REACHABLE_PYTHON
def test_without_cap_sys_admin_the_learner_lists_no_folder_of_the_project(tmp_path):
    attempt = tmp_path / "a3_broadcast.py"
    attempt.write_text(textwrap.dedent(LISTER))
    out = _without_sys_admin(tmp_path, False, f"A3={attempt}")
    kps = out[f"A3={attempt}"]
    assert any("listed []" in message for _, message, _ in kps), kps
    assert {level for _, _, level in kps} == {sandbox.LANDLOCK}, kps


@REACHABLE_PYTHON
def test_without_cap_sys_admin_the_solutions_still_pass(tmp_path):
    """Heavy preloads: on this machine Python lives under /root (0700), which no learner uid may
    enter without a mount namespace, so what it imports must be loaded before it forks."""
    a3, p1 = f"A3={ROOT / 'solutions' / 'a3_broadcast.py'}", f"P1={ROOT / 'solutions' / 'p1_causal_attention.py'}"
    out = _without_sys_admin(tmp_path, True, a3, p1)
    for item in (a3, p1):
        assert {status for status, _, _ in out[item]} == {"passed"}, out[item]
        assert {level for _, _, level in out[item]} == {sandbox.LANDLOCK}, out[item]


def test_with_no_wall_at_all_nothing_is_graded_unless_allowed(tmp_path, monkeypatch):
    """Where neither namespaces nor Landlock can be had, the runner refuses (every mode grades
    through runner.grade_exercise); told to, it grades and says what it applied."""
    from grader.course import catalog
    from grader.engine import runner

    monkeypatch.setattr(sandbox, "isolation_level", lambda: sandbox.USER_ONLY)
    attempt = tmp_path / "a3_broadcast.py"
    attempt.write_text(textwrap.dedent(READER))
    res = runner.grade_exercise(catalog.get("A3"), attempt)
    assert {k.status for k in res.key_points} == {"refused"}, [(k.status, k.message) for k in res.key_points]
    assert "--allow-unsandboxed" in res.key_points[0].message
    monkeypatch.setenv(sandbox.ALLOW_UNSANDBOXED, "1")
    res = runner.grade_exercise(catalog.get("A3"), attempt)
    assert "refused" not in {k.status for k in res.key_points}, [(k.status, k.message) for k in res.key_points]
    assert res.isolation == sandbox.ALLOWLIST  # measured: this machine's root has namespaces


def test_a_process_that_gets_no_wall_where_one_is_required_exits(tmp_path, monkeypatch):
    """The backstop in the learner's own setup: if the wall the runner expected is not there
    when the process is made, it exits before the learner's code runs (never a silent fallback)."""
    from grader.isolation.learner import Learner, NoWall

    def refused(*_):
        raise OSError(1, "simulated")

    monkeypatch.setattr(sandbox.Sandbox, "_namespaces", lambda self, params: None)  # as if unshare were refused
    monkeypatch.setattr(landlock, "ruleset", refused)  # and the kernel had no Landlock
    module = tmp_path / "a3_broadcast.py"
    module.write_text("def broadcast_shape(a, b):\n    return (1,)\n")
    learner = Learner("a3_broadcast", module, require_wall=True)  # forked from here: the patches apply
    try:
        with pytest.raises(NoWall, match="no file-system wall"):
            learner.broadcast_shape((1,), (1,))
    finally:
        learner.close()


MODES = """
import contextlib, io, json, os, sys
from pathlib import Path
from grader.isolation import sandbox

def modes(attempt: Path, tmp: Path) -> dict:
    \"\"\"The A3 verdict's key points (status, message, level) in each mode, for ``attempt``.\"\"\"
    from grader import cli
    from grader.classroom import batch, gradescope, pipeline
    from grader.engine import runner
    from grader.i18n import show

    source = attempt.read_text()
    out = {}
    learner = tmp / "own" / "exercises"  # make grade: the learner's folder
    learner.mkdir(parents=True)
    (learner / "a3_broadcast.py").write_text(source)
    res = runner.grade(learner, only=["A3"])["A3"]
    out["make grade"] = [(k.status, k.message[:300], k.isolation) for k in res.key_points]
    student = tmp / "class" / "mallory"
    student.mkdir(parents=True)
    (student / "a3_broadcast.py").write_text(source)
    job = batch.run_job({"submission": str(student), "exercise": "A3"})
    kps = job["result"]["key_points"]
    out["grader batch"] = [(k["status"], show(k["message"], "en")[:300], k.get("isolation", "")) for k in kps]
    job_file = tmp / "job.json"
    job_file.write_text(json.dumps({"submission": str(student), "exercise": "A3"}))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        cli.main(["job", str(job_file)])
    job = json.loads(printed.getvalue().strip().splitlines()[-1])
    kps = job["result"]["key_points"]
    out["grader job"] = [(k["status"], show(k["message"], "en")[:300], k.get("isolation", "")) for k in kps]
    results = gradescope.grade_submission(student, ["A3"], 1)
    data = gradescope.results_json(results, [], 1.0, {})
    out["gradescope"] = [
        (t.get("status", ""), t["output"][:300], data["extra_data"]["grader"]["isolation"])
        for t in data["tests"] if t.get("number") == "A3"
    ]
    cells = pipeline.grade_answers(tmp / "course", "A", "mallory", {"A3": source}, ["A3"], jobs=1)["A3"]
    out["classroom answer cells"] = [(k.status, k.message[:300], k.isolation) for k in cells.key_points]
    return out

if __name__ == "__main__":
    if sys.argv[1] == "nowall":  # as if neither namespaces nor Landlock could be had
        sandbox.isolation_level = lambda: sandbox.USER_ONLY
    print("RESULT " + json.dumps(modes(Path(sys.argv[2]), Path(sys.argv[3]))))
"""


def _modes(tmp_path, how: str) -> dict:
    attempt = tmp_path / "attempt.py"
    attempt.write_text(textwrap.dedent(READER))
    script = tmp_path / "modes.py"
    script.write_text(MODES)
    work = tmp_path / "work"
    work.mkdir()
    cmd = _no_sys_admin(tmp_path, script)
    run = subprocess.run(
        [*cmd, how, str(attempt), str(work)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, run.stdout[-2000:] + run.stderr[-3000:]
    return json.loads(lines[-1].removeprefix("RESULT "))


@REACHABLE_PYTHON
def test_every_mode_gets_the_wall_without_cap_sys_admin(tmp_path):
    """Issue 27 §5: make grade, grader batch, grader job, Gradescope's run and the classroom's
    answer cells, each as root without CAP_SYS_ADMIN: an attempt that reads solutions/, a check
    and the engine reads none, and each reports the level its learner process measured."""
    for mode, kps in _modes(tmp_path, "landlock").items():
        assert kps, mode
        assert not any("read ['" in message for _, message, _ in kps), (mode, kps)
        assert any("read []" in message for _, message, _ in kps), (mode, kps)
        assert {level for _, _, level in kps} == {sandbox.LANDLOCK}, (mode, kps)


def test_every_mode_refuses_where_there_is_no_wall(tmp_path):
    for mode, kps in _modes(tmp_path, "nowall").items():
        assert kps, mode
        assert not any("read [" in message for _, message, _ in kps), (mode, kps)
        if mode != "gradescope":  # its tests carry no status for a refusal, only the text
            assert {status for status, _, _ in kps} == {"refused"}, (mode, kps)
        assert all("no file-system wall" in message for _, message, _ in kps), (mode, kps)


def test_the_catalogs_and_the_engine_are_in_no_view_of_the_learner():
    """checks.po and mutants.po say every hint and known mistake: the allowlist (namespaces or
    Landlock) never shows grader/locale or grader/engine, and the blocklist view covers both."""
    box = sandbox.Sandbox(1 << 30)
    secret = [sandbox.ROOT / "grader" / name for name in ("locale", "engine", "checks")]
    assert all(path in box._blocklist_hidden() for path in secret)
    shown = [sandbox.Path(src).resolve() for kind, src, _dst in box.view() if kind == "ro"]
    assert not [p for p in shown for s in secret if p == s or s in p.parents]
    assert any(p == sandbox.ROOT / "grader" / "inside" for p in shown)  # the view is read at all


# Issue 27 M1/D1: without a mount namespace the learner writes the host's /dev/shm and a work
# folder on the host disk; what it leaves there is deleted, and both count while it runs.
def test_what_a_learner_uid_leaves_in_dev_shm_is_counted_then_deleted(tmp_path):
    box = sandbox.Sandbox(8 << 30)
    mine, theirs = Path(f"/dev/shm/grader-test-{os.getpid()}-mine"), Path(f"/dev/shm/grader-test-{os.getpid()}-theirs")
    try:
        for path, uid in ((mine, box.uid), (theirs, box.uid + 1)):
            path.write_bytes(b"x" * (32 << 20))
            os.chown(path, uid, uid)
        assert box.memory_in_use(os.getpid()) >= 32 << 20  # no process of its uid holds it
        box.sweep()
        assert not mine.exists() and theirs.exists()
    finally:
        mine.unlink(missing_ok=True)
        theirs.unlink(missing_ok=True)


ONE_KEY_POINT = """
import json, sys
from grader.course import catalog
from grader.engine import runner

if __name__ == "__main__":
    runner.warm_up(heavy=False)
    res = runner.grade_exercise(catalog.get(sys.argv[1]), sys.argv[2], key_points=(sys.argv[3],))
    print("RESULT " + json.dumps([(k.status, k.message[:600], k.isolation) for k in res.key_points]))
"""


@REACHABLE_PYTHON
def test_without_cap_sys_admin_the_work_folder_is_held_to_the_work_tmpfs_size(tmp_path):
    """The work folder is on the host disk there (only RLIMIT_FSIZE caps a file): all its files
    together are held to WORK_SIZE, the namespace mode's tmpfs, and nothing is left in /dev/shm."""
    shm, cap_mib = f"/dev/shm/grader-test-{os.getpid()}", int(sandbox.WORK_SIZE.rstrip("m"))
    attempt = tmp_path / "a3_broadcast.py"
    attempt.write_text(
        textwrap.dedent(f"""
        import time
        def broadcast_shape(a, b):
            with open({shm!r}, "wb") as f:
                f.write(b"x" * (1 << 20))
            block = b"x" * (8 << 20)
            with open("filler", "wb") as f:
                for _ in range({cap_mib // 8 + 2}):
                    f.write(block)
            time.sleep(5)
            raise RuntimeError("not stopped")
        """)
    )
    script = tmp_path / "one.py"
    script.write_text(ONE_KEY_POINT)
    cmd = _no_sys_admin(tmp_path, script)
    try:
        run = subprocess.run(
            [*cmd, "A3", str(attempt), "matches_numpy"],  # one key point: see the report of issue 27
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=600,
        )
        left = os.path.exists(shm)
    finally:
        Path(shm).unlink(missing_ok=True)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, run.stdout[-2000:] + run.stderr[-3000:]
    kps = json.loads(lines[-1].removeprefix("RESULT "))
    assert [status for status, _, _ in kps] == ["oom"], kps
    assert f"{cap_mib} MiB" in kps[0][1], kps
    assert not left, "the learner uid's file in /dev/shm outlived the grade"
