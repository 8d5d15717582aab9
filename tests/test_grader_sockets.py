"""No learner process reaches a unix socket of the grader's (issue 27 Z1).

Where the grader is not root (the documented batch/Slurm set-up: ``rlimits+landlock``), the
learner's process has the grader's uid: the zygote's folder (0700) does not keep it out, and
Landlock does not govern connect() to a pathname socket. An examiner's answer read the zygote's
socket path in /proc/*/cmdline, connected, and sent a forged request for a child with no
Landlock and no seccomp, which rewrote a check. multiprocessing's fork server (Python 3.11: no
authentication) listens the same way and runs whatever is pickled to it. Layers, each tested:

a. the learner's seccomp filter refuses it a unix socket (socketpair stays: multiprocessing.Pipe);
b. the zygote serves the grader and its check processes only (SO_PEERCRED) and never forks a
   child with less than it was started for; the fork server serves the grader only;
c. where (a) cannot hold (no libseccomp) and the grader is not root, the level says so and
   untrusted work is refused.

The attack itself is replayed by a learner's answer graded as ``nobody`` and as root.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from grader.course.catalog import ROOT
from grader.isolation import landlock, sandbox, zygote

needs_filter = pytest.mark.skipif(not sandbox.syscall_filter_available(), reason="needs libseccomp")


def _in_filtered_child(body) -> dict:
    """Run ``body()`` in a forked child that holds the learner's seccomp filter; what it returned."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(r)
        try:
            lib, ctx = sandbox._syscall_filter()
            assert lib.seccomp_load(ctx) == 0
            out = body()
        except BaseException as exc:  # noqa: BLE001
            out = {"error": repr(exc)}
        os.write(w, json.dumps(out).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return json.loads(data)


@needs_filter
def test_the_learners_filter_refuses_a_unix_socket_and_keeps_socketpair():
    def body():
        out = {}
        for name, kind in (
            ("stream", socket.SOCK_STREAM),
            ("seqpacket", socket.SOCK_SEQPACKET),
            ("dgram", socket.SOCK_DGRAM),
        ):
            try:
                socket.socket(socket.AF_UNIX, kind).close()
                out[name] = "made"
            except PermissionError:
                out[name] = "refused"
        a, b = socket.socketpair()
        a.sendall(b"x")
        out["socketpair"] = b.recv(1).decode()
        import multiprocessing

        with multiprocessing.Pool(2) as pool:
            out["pool"] = pool.map(abs, [-1, -2])
        return out

    out = _in_filtered_child(body)
    assert out == {"stream": "refused", "seqpacket": "refused", "dgram": "refused", "socketpair": "x", "pool": [1, 2]}


def test_the_zygote_serves_no_process_but_the_grader_and_its_checks(tmp_path):
    """A child of this test's process (the zygote's parent: the grader) is neither the grader nor
    a check process (whose parent is the fork server): its request is refused before anything is
    forked; the grader's own is served."""
    z = zygote.Zygote("light")
    try:

        def ask() -> str:
            pipes = [os.pipe() for _ in range(4)]
            fds = (pipes[0][0], pipes[1][1], pipes[2][1], pipes[3][1])
            try:
                spawned = zygote.spawn(
                    z.path,
                    module_name="x",
                    module_file=str(tmp_path / "x.py"),
                    cwd=str(tmp_path),
                    env={},
                    sandbox=sandbox.Sandbox(1 << 30, require_wall=sandbox.wall_required()).params(),
                    fds=fds,
                )
            except OSError:  # closed unanswered: "did not answer", or reset with the request unread
                return "refused"
            finally:
                for a, b in pipes:
                    os.close(a)
                    os.close(b)
            spawned.wait(60)
            return "forked"

        pid = os.fork()
        if pid == 0:  # pragma: no cover - the other process
            os._exit(0 if ask() == "refused" else 1)
        assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0, "the zygote forked for another process"
        assert z.alive()
        assert ask() == "forked"
    finally:
        z.close()


def test_the_zygote_refuses_a_request_below_what_it_was_started_for():
    floor = zygote._floor(wall=True)
    good = sandbox.Sandbox(1 << 30, require_wall=True).params()
    assert zygote.lowered(good, floor) is None
    forged = {"privileged": False, "view": [["dev", "/", "/"]], "syscall_filter": False, "require_wall": False}
    assert zygote.lowered(forged, floor) is not None
    for key in ("syscall_filter", "require_wall"):
        if floor[key]:
            assert zygote.lowered({**good, key: False}, floor) == key
    assert zygote.lowered({**good, "privileged": not good["privileged"]}, floor) == "privileged"
    for entry in (
        ["dev", "/", "/"],
        ["ro", "/", "/"],
        ["ro", str(ROOT), str(ROOT)],
        ["ro", str(ROOT / "grader"), "/g"],
    ):
        assert zygote.lowered({**good, "view": [*good["view"], entry]}, floor), entry


def test_without_libseccomp_an_unprivileged_grader_says_its_sockets_are_reachable(monkeypatch):
    monkeypatch.setattr(sandbox, "syscall_filter_available", lambda: False)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(landlock, "abi", lambda: 7)
    sandbox.isolation_level.cache_clear()
    try:
        level = sandbox.isolation_level()
        assert level == sandbox.LANDLOCK_SOCKETS and level not in sandbox.WALLS
        monkeypatch.setenv(sandbox.UNTRUSTED, "1")
        assert sandbox.wall_required()
    finally:
        sandbox.isolation_level.cache_clear()


def test_the_fork_server_serves_the_grader_only(tmp_path):
    """A process of the grader's uid that is not the grader (here a child of this test's process,
    which holds the server's address and protocol as a learner could) asks multiprocessing's fork
    server to run ``os.mkdir``: refused; the grader's own request runs."""
    import multiprocessing
    from multiprocessing import forkserver

    forkserver.set_forkserver_preload(["grader.engine.preload_light"])
    forkserver.ensure_running()
    ctx = multiprocessing.get_context("forkserver")
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the other process
        try:
            forkserver._forkserver.ensure_running = lambda: None  # the running server, not one of its own
            proc = ctx.Process(target=os.mkdir, args=(str(theirs),))
            proc.start()
            proc.join(20)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    proc = ctx.Process(target=os.mkdir, args=(str(ours),))
    proc.start()
    proc.join(60)
    assert ours.is_dir()
    assert not theirs.exists(), "the fork server ran another process's request"


# ---------------------------------------------------------------- the attack, replayed
ATTACK = textwrap.dedent(
    """
    import json, os, socket

    def _attack():
        zygotes, servers, out = [], [], {}
        for pid in os.listdir("/proc"):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    args = f.read().split(b"\\0")
            except OSError:
                continue
            if b"grader.isolation.zygote" in args:
                zygotes.append(args[args.index(b"grader.isolation.zygote") + 1].decode())
        try:
            with open("/proc/net/unix") as f:
                servers = [line.split()[-1] for line in f.read().splitlines()[1:] if "pymp-" in line]
        except OSError:
            pass
        tries = [("zygote", p, socket.SOCK_SEQPACKET) for p in zygotes]
        tries += [("forkserver", p, socket.SOCK_STREAM) for p in servers]
        for name, path, kind in tries:
            try:
                s = socket.socket(socket.AF_UNIX, kind)
                s.connect(path)
            except OSError as exc:
                out.setdefault(name, "refused " + type(exc).__name__)
                continue
            out[name] = "connected"
            if name == "zygote":
                fds = [os.pipe()[0], os.pipe()[1], os.pipe()[1], os.pipe()[1]]
                forged = {"module_name": "x", "module_file": __file__, "cwd": "/", "env": {},
                          "fds": fds, "sandbox": {"memory_bytes": 1 << 30, "privileged": False, "uid": os.getuid(),
                          "box": "", "view": [["dev", "/", "/"]], "blocklist": [], "syscall_filter": False,
                          "one_process_filter": "", "require_wall": False, "report_fd": None}}
                try:
                    socket.send_fds(s, [json.dumps(forged).encode()], fds)
                    out[name] = "answered " + repr(s.recv(4096))
                except OSError as exc:
                    out[name] = "connected, then " + type(exc).__name__
        return {"zygotes": len(zygotes), "servers": len(servers), **out}

    FOUND = _attack()

    def broadcast_shape(a, b):
        raise ValueError("ATTACK " + json.dumps(FOUND))
    """
)

GRADE = """
import json, sys
from grader.course import catalog
from grader.engine import runner
from grader.isolation import sandbox

if __name__ == "__main__":
    runner.warm_up(heavy=False)
    res = runner.grade_exercise(catalog.get("A3"), sys.argv[1])
    print("RESULT " + json.dumps({"level": sandbox.isolation_level(),
                                  "kps": [(k.status, k.message, k.isolation) for k in res.key_points]}))
"""

SETPRIV, UNSHARE = shutil.which("setpriv"), shutil.which("unshare")
CLOSED = sandbox.interpreter_out_of_reach()
# $1: the closed folder, $2: an empty folder to keep the original in; then the command (tests/test_walls.py).
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


def _graded(folder: Path, as_nobody: bool) -> dict:
    (folder / "grade.py").write_text(GRADE)
    attempt = folder / "a3_broadcast.py"
    attempt.write_text(ATTACK)
    cmd = [sys.executable, str(folder / "grade.py"), str(attempt)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if as_nobody:
        cmd = [SETPRIV, "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
        env.update(HOME=str(folder), TMPDIR="/tmp", GRADER_CACHE_DIR=str(folder / "cache"))
        if CLOSED is not None:  # Python under /root (0700): opened to others in a mount namespace of the test's
            keep = folder / "closed-folder"
            keep.mkdir()
            cmd = [
                UNSHARE,
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                OPEN_CLOSED,
                "sh",
                CLOSED,
                str(keep),
                *cmd,
            ]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, run.stdout[-2000:] + run.stderr[-3000:]
    return json.loads(lines[-1].removeprefix("RESULT "))


def _found(result: dict) -> dict:
    for _, message, _ in result["kps"]:
        if "ATTACK " in message:
            return json.loads(message.split("ATTACK ", 1)[1].splitlines()[0].rstrip("'\")"))
    raise AssertionError(f"the answer's report is not in any verdict: {result}")


@pytest.fixture
def shared_folder():
    folder = Path(tempfile.mkdtemp(prefix="grader-sockets-"))  # pytest's tmp_path: only root may enter
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@needs_filter
@pytest.mark.skipif(
    os.geteuid() != 0 or SETPRIV is None or landlock.abi() < 1 or (CLOSED is not None and UNSHARE is None),
    reason="needs root (to become nobody), setpriv and Landlock",
)
def test_a_learner_graded_unprivileged_reaches_no_socket_of_the_grader(shared_folder):
    checks = {p: p.read_bytes() for p in (ROOT / "grader" / "checks").glob("test_*.py")}
    result = _graded(shared_folder, as_nobody=True)
    assert result["level"] == sandbox.LANDLOCK_ONLY, result
    found = _found(result)
    assert found["zygotes"] >= 1 and found["servers"] >= 1, found  # the attack saw both, as the examiner's did
    assert found["zygote"].startswith("refused PermissionError"), found
    assert found["forkserver"].startswith("refused PermissionError"), found
    assert checks == {p: p.read_bytes() for p in checks}, "a check was rewritten"


@needs_filter
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root")
def test_a_learner_graded_as_root_reaches_no_socket_of_the_grader(shared_folder):
    found = _found(_graded(shared_folder, as_nobody=False))
    assert not any(str(v).startswith(("connected", "answered")) for v in found.values()), found


# ---------------------------------------------------------------- solutions/ is the harness's, not any path under it
def test_only_what_the_harness_grades_sees_the_reference():
    solutions = ROOT / "solutions"
    assert sandbox.reference_visible(solutions / "a3_broadcast.py")
    mutant = next((solutions / "mutants" / "a3_broadcast").glob("*.py"))
    assert sandbox.reference_visible(mutant)
    assert sandbox.reference_visible(solutions / "variants" / "c7_jsonl_plan" / "pool_default_chunks.py")
    for path in (
        solutions / "mine" / "a3_broadcast.py",
        solutions / "mine" / "mutants" / "a3_broadcast" / "x.py",
        solutions / "mutants" / "mine" / "a3_broadcast.py",
        solutions / "variants" / "a3_broadcast" / "deeper" / "x.py",
        solutions / "notes.py",
        solutions / "a3_broadcast.txt",
    ):
        assert not sandbox.reference_visible(path), path


def test_a_copy_of_the_solution_in_a_folder_of_solutions_gets_no_credit():
    from grader.engine import runner

    mine = Path(tempfile.mkdtemp(prefix="mine-", dir=ROOT / "solutions"))
    try:
        shutil.copy(ROOT / "solutions" / "a3_broadcast.py", mine / "a3_broadcast.py")
        res = runner.grade(mine, only=["A3"])["A3"]
        statuses = {k.status for k in res.key_points}
        assert "passed" not in statuses, [(k.status, k.message[:200]) for k in res.key_points]
    finally:
        shutil.rmtree(mine)
