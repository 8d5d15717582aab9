"""The limits a learner's process runs under, set between fork and exec.

Always: an address-space cap (RLIMIT_AS), a file-size cap, no core dumps, and death with the
check process (PR_SET_PDEATHSIG). Where the grader runs as root (the course machine, CI) also:

* its own network namespace with no interfaces up: no network use;
* its own mount namespace: the project read-only, the hidden checks (``grader/checks``) and,
  unless a solution or mutant is being graded, ``solutions/`` replaced by empty folders, and so
  is the project's git folder (its objects hold every check and solution); the
  shared writable folders (/tmp, /var/tmp, /run/lock) read-only except the learner's own work
  folder, and a private, size-capped /dev/shm (multiprocessing needs it);
* an unprivileged user id of its own, with a process-count cap (RLIMIT_NPROC): it cannot touch
  the grader's files or processes, and :func:`sweep_uid` (by the check, then again by the
  runner) kills everything it left behind (a fork bomb, a daemon) by signalling every process
  of that user id.

Memory: RLIMIT_AS caps each process; the learner's processes together (its user id's, or its
session's without root) are held to the same cap by :meth:`Sandbox.memory_in_use`, which the
check polls while it waits for an answer (no cgroup v2 here: the machine's cgroup v1 belongs to
its host).

Without root only the first group applies; :func:`isolation_level` says which one is in force.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
from pathlib import Path

from grader.engine import cache
from grader.course.catalog import ROOT

_CLONE_NEWNS, _CLONE_NEWNET = 0x00020000, 0x40000000
_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_MOVE, _MS_REC, _MS_PRIVATE = 1, 32, 4096, 8192, 16384, 1 << 18
_PR_SET_PDEATHSIG = 1
_UID_BASE = 100000  # learner uids: this + check pid * SLOTS + slot, unique among live checks
SLOTS = 16  # learner processes one check process may have at once

FILE_SIZE_CAP = 2 << 30  # bytes one file may grow to
SHM_SIZE = b"256m"  # the private /dev/shm (tmpfs: counts as memory, not as address space)
SHARED_WRITABLE = ("/tmp", "/var/tmp", "/run/lock")  # world-writable folders, made read-only
NPROC_CAP = 256  # processes and threads of one learner uid


def _libc():
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_char_p]
    return libc


def isolation_level() -> str:
    return "user+namespaces" if os.geteuid() == 0 else "rlimits"


class Sandbox:
    """Limits for one learner process tree; ``preexec`` runs in the child before exec."""

    _next_slot = 0

    def __init__(self, memory_bytes: int, *, hide_solutions: bool = True, hidden: list[Path] = ()):
        self.memory_bytes = memory_bytes
        self.privileged = os.geteuid() == 0
        # Each learner process of a check gets its own uid, so sweeping one spares the others.
        slot, Sandbox._next_slot = Sandbox._next_slot % SLOTS, Sandbox._next_slot + 1
        self.uid = uid_for(os.getpid(), slot) if self.privileged else os.geteuid()
        self.hidden = [ROOT / "grader" / "checks", cache.CACHE_DIR, *_git_dirs(), *map(Path, hidden)]
        if hide_solutions:
            self.hidden.append(ROOT / "solutions")

    def params(self) -> dict:
        """Plain data to rebuild this sandbox in another process (:mod:`grader.isolation.zygote`)."""
        return {"memory_bytes": self.memory_bytes, "privileged": self.privileged, "uid": self.uid,
                "hidden": [str(p) for p in self.hidden], "stage": str(getattr(self, "_stage", "") or ""),
                "workdir": str(getattr(self, "_workdir", "") or "")}

    @classmethod
    def from_params(cls, params: dict) -> "Sandbox":
        box = cls.__new__(cls)
        box.memory_bytes, box.privileged, box.uid = params["memory_bytes"], params["privileged"], params["uid"]
        box.hidden = [Path(p) for p in params["hidden"]]
        if params["stage"]:
            box._stage = Path(params["stage"])
        if params["workdir"]:
            box._workdir = Path(params["workdir"])
        return box

    def prepare_workdir(self, path: Path) -> None:
        if self.privileged:
            os.chown(path, self.uid, self.uid)

    def set_stage(self, path: Path) -> None:
        """An empty folder the child may use as a temporary mount point."""
        self._stage = path

    def set_workdir(self, path: Path) -> None:
        """The one folder the learner may write to (its cwd, HOME and TMPDIR)."""
        self._workdir = path

    def preexec(self) -> None:  # runs in the forked child: no locks, no threads
        if self.privileged:
            self._namespaces()
            resource.setrlimit(resource.RLIMIT_NPROC, (NPROC_CAP, NPROC_CAP))
            os.setgroups([])
            os.setgid(self.uid)
            os.setuid(self.uid)
        resource.setrlimit(resource.RLIMIT_AS, (self.memory_bytes, self.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_CAP, FILE_SIZE_CAP))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # after setuid, which clears it

    def _namespaces(self) -> None:
        libc = _libc()
        if libc.unshare(_CLONE_NEWNS | _CLONE_NEWNET) != 0:
            return  # no namespaces here (a container without the capability): user id only
        libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None)
        root = str(ROOT).encode()
        if libc.mount(root, root, None, _MS_BIND | _MS_REC, None) == 0:
            libc.mount(None, root, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY, None)
        for path in self.hidden:
            if path.is_dir():
                libc.mount(b"tmpfs", str(path).encode(), b"tmpfs", _MS_RDONLY, b"size=4k,mode=0555")
        self._confine_writes(libc)
        self._reach_interpreter(libc)

    def _confine_writes(self, libc) -> None:
        """Writes go to the work folder only: bind it onto itself (a mount of its own stays
        writable), then remount each shared writable folder read-only; /dev/shm is a fresh tmpfs
        that vanishes with the namespace."""
        shared = [d.encode() for d in SHARED_WRITABLE if os.path.isdir(d) and not os.path.islink(d)]
        for d in shared:
            libc.mount(d, d, None, _MS_BIND | _MS_REC, None)
        workdir = getattr(self, "_workdir", None)
        if workdir is not None:
            libc.mount(str(workdir).encode(), str(workdir).encode(), None, _MS_BIND | _MS_REC, None)
        for d in shared:
            libc.mount(None, d, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY, None)
        if os.path.isdir("/dev/shm"):
            libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", 0, b"size=" + SHM_SIZE + b",mode=1777")

    def _reach_interpreter(self, libc) -> None:
        """Python may live under a folder other users cannot enter (e.g. /root/.pyenv): cover
        that folder with an empty one that leads to the interpreter's prefix only."""
        prefix = Path(sys.base_prefix).resolve()
        blocked = next((p for p in reversed(prefix.parents) if not os.stat(p).st_mode & 0o001), None)
        stage = getattr(self, "_stage", None)
        if blocked is None or stage is None:
            return
        if libc.mount(str(prefix).encode(), str(stage).encode(), None, _MS_BIND | _MS_REC, None) != 0:
            return
        libc.mount(b"tmpfs", str(blocked).encode(), b"tmpfs", 0, b"size=64k,mode=0755")
        os.makedirs(prefix, mode=0o755, exist_ok=True)
        libc.mount(str(stage).encode(), str(prefix).encode(), None, _MS_MOVE, None)

    def memory_in_use(self, leader: int) -> int:
        """Bytes resident in all the learner's processes when it has more than one (with one,
        RLIMIT_AS caps it and this returns 0). Sums RSS, the cheap figure; only when that exceeds
        the cap sums PSS, which counts pages shared after fork() once."""
        pids = [pid for pid in _all_pids() if self._owns(pid, leader)]
        if len(pids) < 2:
            return 0
        rss = sum(_read_int(f"/proc/{pid}/statm", 1) * _PAGE for pid in pids)
        if rss <= self.memory_bytes:
            return rss
        return sum(_pss_bytes(pid) for pid in pids)

    def _owns(self, pid: int, leader: int) -> bool:
        try:
            if self.privileged:
                return os.stat(f"/proc/{pid}").st_uid == self.uid
            stat = Path(f"/proc/{pid}/stat").read_text()
            return int(stat.rpartition(")")[2].split()[3]) == leader  # its session
        except (OSError, ValueError, IndexError):
            return False

    def sweep(self) -> None:
        """Kill every process of this sandbox's user id (what a fork bomb leaves behind)."""
        if self.privileged:
            sweep_uid(self.uid)


def _git_dirs() -> list[Path]:
    """The project's git folder; in a worktree (``.git`` is a file) also the shared one."""
    dot_git = ROOT / ".git"
    if dot_git.is_file():
        gitdir = Path(dot_git.read_text().partition("gitdir:")[2].strip())
        common = gitdir.parent.parent if gitdir.parent.name == "worktrees" else gitdir
        return [gitdir, common]
    return [dot_git]


_PAGE = os.sysconf("SC_PAGE_SIZE")


def _all_pids() -> list[int]:
    return [int(e.name) for e in os.scandir("/proc") if e.name.isdigit()]


def _read_int(path: str, field: int) -> int:
    try:
        return int(Path(path).read_text().split()[field])
    except (OSError, ValueError, IndexError):
        return 0  # the process is gone


def _pss_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def uid_for(check_pid: int, slot: int = 0) -> int:
    """A learner uid of the check process ``check_pid``."""
    return _UID_BASE + check_pid * SLOTS + slot


def sweep_check(check_pid: int) -> None:
    """After a check process ends: kill whatever any of its learners left behind."""
    for slot in range(SLOTS):
        sweep_uid(uid_for(check_pid, slot))


def sweep_uid(uid: int) -> None:
    """Kill every process of ``uid``: signalled as that uid, nothing else can be hit."""
    if os.geteuid() != 0:
        return
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child only signals and exits
        try:
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
