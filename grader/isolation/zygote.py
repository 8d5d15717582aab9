"""A clean process that imports the learners' libraries once and forks each learner's process.

Starting a learner's process as ``python -m grader.inside.worker`` costs an interpreter start and, for
most exercises, an import of torch: seconds on a 2-core box, once per learner process, the
largest part of the grading overhead. The zygote pays it once per grading run. It imports the
libraries (never a check, a solution or anything a check computed) and, on request, forks a
child that sets up the same sandbox (:class:`grader.isolation.sandbox.Sandbox`) and runs
:func:`grader.inside.worker.main` on the learner's module, as the exec'd path does.

A check process asks over a unix socket in a folder only the grader's user can enter, passing
the learner's pipe ends (requests, answers, the watch's reports, its stdout and stderr) as file descriptors. The
zygote runs with the learner's minimal environment (a forked child's /proc/self/environ is
the zygote's); the modules of the grader a child inherits in ``sys.modules`` are forgotten
before the learner's module is imported (:func:`grader.inside.worker.forget_grader`). The connection lives as long as
the learner's process: the zygote writes the child's wait status on it when the child ends, and
kills the child when the check hangs up (a check that timed out and was killed). The zygote
dies with the process that started it; its children die with it (PR_SET_PDEATHSIG).

    python -m grader.isolation.zygote <socket path> light|heavy [wall]

Where the grader is not root, the learner's process has the grader's uid and its folder's 0700
does not keep it out (and Landlock does not govern connect() to a pathname socket): its seccomp
filter refuses it a unix socket (:data:`grader.isolation.sandbox.DENIED_SYSCALLS`), and the
zygote serves the grader and its check processes only (:func:`is_check_process`, from the peer's SO_PEERCRED pid) and
never forks a child with less than it was started for (:func:`lowered`): a forged request is
refused and logged on the grader's stderr (issue 27 Z1).
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

from grader.isolation import procfs

_MAX_REQUEST = 1 << 20
_FDS = 4  # a learner's pipe ends: requests, answers, reports, output
PRELOAD = {
    "light": ("numpy",),
    "heavy": (
        "numpy",
        "torch",
        "torch.nn.functional",
        "transformers",
        "transformers.models.llama.modeling_llama",
        "peft",
    ),
}
# Set before torch loads: OpenMP reads its thread count once, when the library is loaded.
THREAD_ENV = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


# ---------------------------------------------------------------- the check's side
class Spawned:
    """A learner's process forked by the zygote, with the part of ``subprocess.Popen`` that
    :class:`grader.isolation.learner.Learner` uses: ``pid`` and ``wait``."""

    def __init__(self, conn: socket.socket, pid: int):
        self._conn = conn
        self.pid = pid
        self.returncode: int | None = None

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self._conn.settimeout(timeout)
            try:
                packet = self._conn.recv(4096)
            except TimeoutError:
                raise subprocess.TimeoutExpired(f"learner process {self.pid}", timeout) from None
            self._conn.close()
            status = json.loads(packet)["status"] if packet else 9  # the zygote is gone: as if killed
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


def spawn(
    path: str, *, module_name: str, module_file: str, cwd: str, env: dict, sandbox: dict, fds: tuple[int, ...]
) -> Spawned:
    """Fork a learner's process from the zygote at ``path``; ``fds`` = (requests, answers, reports, output)."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    conn.connect(path)
    request = {
        "module_name": module_name,
        "module_file": module_file,
        "cwd": cwd,
        "env": env,
        "sandbox": sandbox,
        "fds": list(fds),
    }
    socket.send_fds(conn, [json.dumps(request).encode()], list(fds))
    packet = conn.recv(4096)  # waits while the zygote is still importing
    if not packet:
        conn.close()
        raise OSError("the zygote did not answer")
    return Spawned(conn, json.loads(packet)["pid"])


class Zygote:
    """The zygote process of this grading run (started by :func:`start`)."""

    def __init__(self, kind: str):
        import tempfile

        self._dir = tempfile.TemporaryDirectory(prefix="grader-zygote-")  # mode 0700: root only
        self.path = str(Path(self._dir.name) / "socket")
        # Its children's /proc/self/environ shows this block: the learner's allowlist, no more.
        env = {k: os.environ[k] for k in ("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "PATH") if k in os.environ}
        env.update(
            THREAD_ENV,
            HOME=self._dir.name,
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONPATH=str(Path(__file__).resolve().parents[2]),
        )  # this project's grader, nothing else
        from grader.isolation import sandbox

        self.wall = sandbox.wall_required()
        floor = ["wall"] if self.wall else []  # never less for the rest of the run: see running()
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "grader.isolation.zygote", self.path, kind, *floor],
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        while not os.path.exists(self.path):  # bound before it imports: clients queue meanwhile
            if self._proc.poll() is not None:
                raise OSError(f"the zygote exited with code {self._proc.returncode}")
            select.select([], [], [], 0.01)

    def alive(self) -> bool:
        return self._proc.poll() is None

    def close(self) -> None:
        self._proc.kill()
        self._proc.wait()
        self._dir.cleanup()


_LOCK = threading.Lock()
_RUNNING: dict[int, Zygote] = {}  # by the pid that started it: a forked child has none


def start(kind: str = "heavy") -> str:
    """Start this process's zygote with ``kind`` preloads, if none runs; its socket path.

    Call it from the main thread: the zygote dies with the thread that started it.
    """
    with _LOCK:
        zygote = _RUNNING.get(os.getpid())
        if zygote is not None and zygote.alive():
            return zygote.path
        zygote = _RUNNING[os.getpid()] = Zygote(kind)
        import atexit

        atexit.register(zygote.close)
        return zygote.path


def running() -> str | None:
    """The socket path of this process's zygote, if one runs and may fork what is asked now: one
    started where a wall was required forks no process without one (``--allow-unsandboxed`` set
    since): the learner's process is then started by exec, as without a zygote."""
    from grader.isolation import sandbox

    zygote = _RUNNING.get(os.getpid())
    if zygote is None or not zygote.alive() or (zygote.wall and not sandbox.wall_required()):
        return None
    return zygote.path


# ---------------------------------------------------------------- the zygote's side
def _child(request: dict, fds: list[int]) -> None:
    """In the forked child: become the learner's process; never returns."""
    code = 70
    try:
        from grader.inside import worker
        from grader.isolation.sandbox import Sandbox

        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        req_fd, ans_fd, rep_fd, out_fd = fds
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd in map(int, os.listdir("/proc/self/fd")):  # the zygote's sockets are none of its business
            if fd > 2 and fd not in (req_fd, ans_fd, rep_fd):
                try:
                    os.close(fd)
                except OSError:
                    pass
        os.setsid()
        with open("/proc/self/clear_refs", "w") as f:  # VmHWM starts at this process's own RSS,
            f.write("5")  # not at the zygote's peak (checks read it)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import tempfile

        tempfile.tempdir = None  # computed anew from TMPDIR (the zygote's imports cached /tmp)
        sys.path[0] = request["cwd"]  # as ``python -m grader.inside.worker`` would have it
        sys.dont_write_bytecode = True
        Sandbox.from_params({**request["sandbox"], "report_fd": ans_fd}).preexec()  # its number here
        sys.argv = ["grader.inside.worker"]
        sys.modules["__main__"] = worker  # as under ``python -m grader.inside.worker``, not the zygote
        code = worker.main([str(req_fd), str(ans_fd), str(rep_fd), request["module_name"], request["module_file"]])
    except BaseException:  # noqa: BLE001 - the learner's process must end here, whatever happened
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) else 70)


def _ancestors(pid: int) -> list[int]:
    """``pid``'s parent, its parent, ... up to init (empty once ``pid`` is gone)."""
    found = []
    while (pid := procfs.parent(pid)) and pid not in found:
        found.append(pid)
    return found


def _cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().decode(errors="replace").split("\0")
    except OSError:
        return []


def is_check_process(pid: int) -> bool:
    """Whether ``pid`` may ask: the grader that started this zygote (a test, a tool using
    :class:`grader.isolation.learner.Learner` itself), or a check process of it: a child of
    multiprocessing's fork server (``runner._fork_server``), itself a child of that grader, and no
    descendant of this zygote (a learner's process, or one it started, is one)."""
    if pid == os.getppid():
        return True
    ancestors = _ancestors(pid)
    if len(ancestors) < 2 or os.getpid() in ancestors or pid == os.getpid():
        return False
    server, grader = ancestors[:2]
    return grader == os.getppid() and any("multiprocessing.forkserver" in arg for arg in _cmdline(server))


def _peer_pid(conn: socket.socket) -> int:
    pid, _, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    return pid


def lowered(sandbox: dict, floor: dict) -> str | None:
    """What in a request's ``sandbox`` is below what this zygote was started for, else None: a
    check process asks for its learner's sandbox, never for less than these."""
    for key in ("privileged", "syscall_filter", "require_wall"):
        if floor[key] and not sandbox.get(key):
            return key
    if sandbox.get("privileged") != floor["privileged"]:
        return "privileged"
    for entry in sandbox.get("view", ()):
        kind, source = entry[0], os.path.abspath(entry[1]) if len(entry) > 1 else ""
        if kind == "dev" and os.path.dirname(source) != "/dev":
            return f"view {entry}"
        if kind in ("ro", "dev") and tuple(entry) not in floor["view"]:
            if any(secret == source or secret.startswith(source.rstrip("/") + "/") for secret in floor["secrets"]):
                return f"view {entry}"
    return None


def _floor(wall: bool) -> dict:
    """What every learner's process this zygote forks gets at least."""
    from grader.engine import cache
    from grader.isolation import sandbox

    root = sandbox.ROOT
    return {
        "privileged": os.geteuid() == 0,
        "syscall_filter": sandbox.syscall_filter_available(),
        "require_wall": wall,
        # entries of a view without a box (the system, the interpreter, the grader's visible packages)
        "view": {tuple(e) for e in sandbox.Sandbox(1 << 30).view()},
        "secrets": [str(root / "grader" / "checks"), str(root / "grader" / "engine"), str(cache.CACHE_DIR)],
    }


def _refuse(conn: socket.socket, why: str) -> None:
    print(f"grader zygote: refused a request ({why})", file=sys.stderr, flush=True)
    conn.close()


def serve(path: str, kind: str, wall: bool = False) -> None:
    import ctypes

    ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the grader
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(128)
    from grader.engine.preload import load

    load(PRELOAD[kind])
    from grader.isolation import sandbox

    sandbox.syscall_filter_available()  # built here, once: each forked child only loads it
    floor = _floor(wall)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    waiting: dict[socket.socket, int | None] = {}  # connection -> the child's pid, once forked
    children: dict[int, socket.socket] = {}

    def reap() -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = children.pop(pid, None)
            if conn is not None:
                try:
                    conn.sendall(json.dumps({"status": status}).encode() + b"\n")
                except OSError:
                    pass
                waiting.pop(conn, None)
                conn.close()

    while True:
        ready, _, _ = select.select([listener, wake_r, *waiting], [], [])
        if wake_r in ready:
            os.read(wake_r, 4096)
            reap()
        if listener in ready:
            conn, _ = listener.accept()
            peer = _peer_pid(conn)
            if is_check_process(peer):
                waiting[conn] = None
            else:
                _refuse(conn, f"pid {peer} is no check process of this grader")
        for conn in [c for c in ready if c in waiting]:
            pid = waiting[conn]
            if pid is not None:  # the check hung up (it was killed): end its learner's process
                waiting.pop(conn)
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                continue
            try:
                msg, fds, _, _ = socket.recv_fds(conn, _MAX_REQUEST, _FDS)
            except OSError:
                msg, fds = b"", []
            if not msg or len(fds) != _FDS:
                for fd in fds:
                    os.close(fd)
                waiting.pop(conn)
                conn.close()
                continue
            try:
                request = json.loads(msg)
                why = lowered(request["sandbox"], floor)
            except (ValueError, KeyError, TypeError, IndexError) as exc:
                why = f"malformed: {exc!r}"
            if why is not None:
                for fd in fds:
                    os.close(fd)
                waiting.pop(conn)
                _refuse(conn, f"it asks for less than this zygote was started for: {why}")
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _child(request, fds)
            for fd in fds:
                os.close(fd)
            waiting[conn] = pid
            children[pid] = conn
            conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2], wall="wall" in sys.argv[3:])
