"""What the learner's process sees, and its limits; set in the child before the learner's code runs.

Always: an address-space cap (RLIMIT_AS), a file-size cap, no core dumps, death with the check
(PR_SET_PDEATHSIG). Where the grader runs as root (the course machine, CI) also: an unprivileged
uid of its own with a process cap (RLIMIT_NPROC; :func:`sweep_uid` kills whatever it leaves),
no new privileges (set-uid files do nothing), no network (an empty network namespace), no
System V IPC of anyone else's (its own IPC namespace), and a mount namespace whose root is an
empty tmpfs holding exactly :meth:`Sandbox.view`:

* read-only: the interpreter and its venv, /usr and /lib*, a few files of /etc; of the grader,
  its packages the learner's process runs or may import (:data:`LEARNER_VISIBLE`: ``inside/``,
  the worker, its watch and codec; ``given/``; ``drivers/``), whole, and the empty
  ``grader/__init__.py`` that makes them a package; the model cache; the check's inputs folder;
  a copy of the learner's modules; ``solutions/`` only when a solution or a mutant is what is
  graded;
* its own: the work folder (cwd, HOME, TMPDIR), /tmp and /dev/shm, each a size-capped tmpfs;
* fresh: /proc (``hidepid=invisible``: its own processes only, so no report path in anyone's
  command line), /dev with null, zero, full, random, urandom.

Nothing else: no other copy of the project, no other user's files, no results or report path,
no checks, no course/engine/isolation/quiz/reports/classroom code. A full work folder fills its own tmpfs only.

Under a "do not call" rule (``processes: False``) the worker also loads :func:`one_process_filter`
before the learner's import: no new process or program, which the check confirms in /proc.

Where the kernel refuses ``pivot_root``, the older blocklist view instead (the project
read-only, the checks, solutions, git objects and caches covered, the shared writable folders
read-only). Where it refuses ``unshare`` (a container without CAP_SYS_ADMIN) or the grader is
not root, the same allowlist through Landlock (:mod:`grader.isolation.landlock`). What was
applied is measured in the child's own setup and written to the check first, before anything
of the learner's runs (:data:`LEVELS`); a process that would run with no file-system wall
where one is required (:func:`wall_required`) exits instead (:data:`EXIT_NO_WALL`). The
learner's processes together are held to the memory cap by :meth:`Sandbox.memory_in_use`,
polled by the check (no cgroup v2 here).
"""

from __future__ import annotations

import ctypes
import functools
import os
import platform
import resource
import shutil
import signal
import stat
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from grader import inside
from grader.i18n import N_
from grader.inside import codec
from grader.isolation import landlock, procfs

ROOT = Path(__file__).resolve().parents[2]
_CLONE_NEWNS, _CLONE_NEWNET, _CLONE_NEWIPC = 0x00020000, 0x40000000, 0x08000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_MOVE, _MS_REC, _MS_PRIVATE = 32, 4096, 8192, 16384, 1 << 18
_MNT_DETACH = 2
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_NO_NEW_PRIVS = 1, 4, 38
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41}.get(platform.machine())
_UID_BASE = 100000  # learner uids: this + check pid * SLOTS + slot, unique among live checks
SLOTS = 16  # learner processes one check process may have at once

FILE_SIZE_CAP = 2 << 30  # bytes one file may grow to
WORK_SIZE, TMP_SIZE, SHM_SIZE = "512m", "64m", "256m"  # the learner's own tmpfs (memory, not address space)
NPROC_CAP = 256  # processes and threads of one learner uid
NOFILE_CAP = 4096  # open files of one learner process: each socket's buffer counts against memory
NOT_COUNTED_ALONE = 16 << 20  # a lone process's few pipes and sockets (its channel to the check)
WORK_BYTES = int(WORK_SIZE.rstrip("m")) << 20  # the work folder's cap where it is on the host disk
HOST_TMPFS = ("/dev/shm",)  # host folders a learner uid may write without a mount namespace (no /tmp: _landlock_rules)
SHARED_WRITABLE = ("/tmp", "/var/tmp", "/run/lock")  # blocklist view: world-writable, made read-only
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "gitconfig")  # no passwd: no other users
DEVICES = ("null", "zero", "full", "random", "urandom")
# Of the grader, what the learner's process sees: the packages it may import, each whole.
LEARNER_VISIBLE = ("grader/__init__.py", *(package.replace(".", "/") for package in inside.VISIBLE))


# Refused to the learner (EPERM) by a seccomp filter, through libseccomp: no namespaces of its
# own (a user namespace would give it mount rights), no mounts, no tracing or reading of other
# processes' memory, no kernel keyrings, BPF or io_uring (kernel attack surface no answer needs).
DENIED_SYSCALLS = (
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "userfaultfd",
    "io_uring_setup",
    "open_by_handle_at",
    "kexec_load",
    "init_module",
)
_CLONE_NAMESPACES = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)
_SCMP_ACT_ALLOW, _SCMP_CMP_EQ, _SCMP_CMP_MASKED_EQ = 0x7FFF0000, 4, 7
# A new unix socket (bound or connected by path, or abstract): the grader's own sockets (the zygote's,
# multiprocessing's fork server) are same-uid where the grader is not root, and Landlock does not govern
# connect() to a pathname socket (issue 27 Z1). socketpair() stays: multiprocessing.Pipe uses it.
_AF_UNIX = 1
_EPERM, _ENOSYS, _EOPNOTSUPP = 1, 38, 95
# fallocate(FALLOC_FL_KEEP_SIZE) allocates blocks past RLIMIT_FSIZE in one call (the kernel checks the
# limit on the file's size only): on the host disk (Landlock) one call could fill it before a poll.
_FALLOC_FL_KEEP_SIZE = 0x01


class _ArgCmp(ctypes.Structure):  # struct scmp_arg_cmp
    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


@functools.cache
def _libseccomp():
    try:
        lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCmp),
    ]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib


def _new_filter(rules) -> tuple | None:
    """``(lib, ctx)``: a libseccomp context that allows every call but ``rules``, each
    ``(name, errno, *argument comparisons)``; None where libseccomp is missing or refuses one."""
    lib = _libseccomp()
    ctx = lib.seccomp_init(_SCMP_ACT_ALLOW) if lib is not None else None
    if not ctx:
        return None

    def deny(name: str, errno: int, *cmp: _ArgCmp) -> bool:
        nr = lib.seccomp_syscall_resolve_name(name.encode())
        args = (_ArgCmp * len(cmp))(*cmp) if cmp else None
        return nr < 0 or lib.seccomp_rule_add_array(ctx, 0x00050000 | errno, nr, len(cmp), args) == 0

    return (lib, ctx) if all([deny(*rule) for rule in rules]) else None


@functools.cache
def _syscall_filter():
    """The filter of every learner process, built once in the process that forks learners (the
    child only loads it); None where libseccomp is missing."""
    return _new_filter(
        [
            *((name, _EPERM) for name in DENIED_SYSCALLS),
            *(("clone", _EPERM, _ArgCmp(0, _SCMP_CMP_MASKED_EQ, flag, flag)) for flag in _CLONE_NAMESPACES),
            ("clone3", _ENOSYS),  # its flags sit behind a pointer: ENOSYS makes libc fall back to clone
            # a memfd's fd sent over a unix socket then closed is in no fd table or address space: the cap
            # could not count it (issue 27 M2); ENOSYS makes libraries that probe it (asmjit) fall back
            ("memfd_create", _ENOSYS),
            ("fallocate", _EOPNOTSUPP, _ArgCmp(1, _SCMP_CMP_MASKED_EQ, _FALLOC_FL_KEEP_SIZE, _FALLOC_FL_KEEP_SIZE)),
            ("socket", _EPERM, _ArgCmp(0, _SCMP_CMP_EQ, _AF_UNIX, 0)),
        ]
    )


# An answer that must run in one process (a "do not call" rule's: grader.course.do_not_call):
# no new process (fork, vfork, a clone that is not a thread: posix_spawn, raw syscalls) and no new
# program. Loaded by the worker before the learner's module is imported (the exec'd path needs
# its own execve first): irrevocable, whatever the learner's code does to the process after.
ONE_PROCESS_SYSCALLS = ("execve", "execveat", "fork", "vfork")
_CLONE_THREAD = 0x00010000


@functools.cache
def one_process_filter() -> bytes | None:
    """The one-process filter as a BPF program (``struct sock_filter`` array) the worker loads
    (:func:`grader.inside.worker.load_syscall_filter`); None where libseccomp is missing."""
    made = _new_filter(
        [
            *((name, _EPERM) for name in ONE_PROCESS_SYSCALLS),
            ("clone", _EPERM, _ArgCmp(0, _SCMP_CMP_MASKED_EQ, _CLONE_THREAD, 0)),
        ]
    )
    if made is None:
        return None
    lib, ctx = made
    fd = os.memfd_create("one-process-filter")
    try:
        if lib.seccomp_export_bpf(ctx, fd) != 0:
            return None
        os.lseek(fd, 0, os.SEEK_SET)
        return os.read(fd, 1 << 20)
    finally:
        os.close(fd)


def syscall_filter_available() -> bool:
    return _syscall_filter() is not None


def _libc():
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_char_p]
    libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    return libc


# What a learner's process may get, strongest first; the first four are a file-system wall.
ALLOWLIST = N_("user+namespaces+allowlist")
BLOCKLIST = N_("user+namespaces (blocklist: pivot_root refused here)")
LANDLOCK = N_("user+landlock (allowlist: namespaces refused here)")
LANDLOCK_ONLY = N_("rlimits+landlock (allowlist: not root)")
# Not root and no libseccomp: the wall holds for files, but the learner shares the grader's uid and
# no filter refuses it a unix socket: the zygote's and the fork server's are in its reach (issue 27 Z1).
LANDLOCK_SOCKETS = N_("rlimits+landlock (the grader's sockets are reachable: no libseccomp)")
USER_ONLY = N_("user id only (no file-system wall)")
RLIMITS = N_("rlimits")
# Hidden in the blocklist view (the allowlist never shows them): the checks, the engine, and the
# catalogs (checks.po and mutants.po say every hint and known mistake).
BLOCKLIST_HIDDEN = ("checks", "engine", "locale")
LEVELS = (ALLOWLIST, BLOCKLIST, LANDLOCK, LANDLOCK_ONLY, LANDLOCK_SOCKETS, USER_ONLY, RLIMITS)
WALLS = LEVELS[:4]
EXIT_NO_WALL = 72  # the learner's process exits with it rather than run without the wall required
ALLOW_UNSANDBOXED = "GRADER_ALLOW_UNSANDBOXED"  # "1": grade without a file-system wall (--allow-unsandboxed)
UNTRUSTED = "GRADER_UNTRUSTED"  # "1": grading others' work (batch, job, gradescope): a wall is required


def wall_required() -> bool:
    """Whether grading refuses to run a learner's process with no file-system wall: as root (how
    others' work is graded: a container, CI, the course machine) or in a mode that grades others'
    work, unless told otherwise. A learner grading their own code as themselves, on their own
    machine, is not refused (they own every file the wall would keep from them)."""
    if os.environ.get(ALLOW_UNSANDBOXED) == "1":
        return False
    return os.geteuid() == 0 or os.environ.get(UNTRUSTED) == "1"


def grading_others_work() -> None:
    """Called by every mode that grades a class (batch jobs, Gradescope, the answer cells): from
    now on, in this process and those it starts, a wall is required, root or not."""
    os.environ.setdefault(UNTRUSTED, "1")


def weakest(levels) -> str:
    """The weakest of the levels a run's learner processes got ("" for none)."""
    found = [lvl for lvl in levels if lvl in LEVELS]
    return max(found, key=LEVELS.index) if found else ""


@functools.cache
def isolation_level() -> str:
    """The level a learner's process will get here, probed (each process measures its own)."""
    if os.geteuid() == 0 and _can_unshare():
        return ALLOWLIST if _can_pivot() else BLOCKLIST
    if landlock.abi() >= 1:
        if os.geteuid() == 0:
            return LANDLOCK
        return LANDLOCK_ONLY if syscall_filter_available() else LANDLOCK_SOCKETS
    return USER_ONLY if os.geteuid() == 0 else RLIMITS


def interpreter_out_of_reach() -> str | None:
    """The first folder on the way to this Python (its interpreter, standard library,
    site-packages) that other users may not enter, else None. Without a mount namespace (the
    Landlock level as root) a learner uid reaches them through the host's permissions only, so a
    Python under /root (0700) fails its imports: that is the machine's, never the learner's."""
    paths = sysconfig.get_paths()
    for target in sorted({os.path.realpath(sys.executable), *(paths[k] for k in ("stdlib", "purelib", "platlib"))}):
        for folder in [*reversed(Path(target).parents), Path(target)]:
            try:
                mode = os.stat(folder).st_mode
            except OSError:
                continue
            if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
                return str(folder)
    return None


def _can_unshare() -> bool:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - one syscall, then exit
        os._exit(0 if _libc().unshare(_CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC) == 0 else 1)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def _can_pivot() -> bool:
    """Try, in a throw-away child, what :meth:`Sandbox._allowlist` needs."""
    if _SYS_PIVOT_ROOT is None:
        return False
    libc = _libc()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - only syscalls, then exit
        code = 1
        try:
            if (
                libc.unshare(_CLONE_NEWNS) == 0
                and libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) == 0
                and libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, b"size=64k") == 0
            ):
                os.chdir("/tmp")
                code = 0 if libc.syscall(_SYS_PIVOT_ROOT, b".", b".") == 0 else 1
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


class Sandbox:
    """Limits and the view of one learner process tree; :meth:`preexec` runs in the child.

    ``box`` is the check's own folder for this learner (``src/`` the copy of its modules,
    ``work/`` its work folder, ``stage/`` a mount point); ``inputs`` a folder of the check's
    generated inputs; ``reference_visible`` when a solution or mutant is graded.
    """

    _next_slot = 0

    def __init__(
        self,
        memory_bytes: int,
        *,
        box: Path | None = None,
        inputs: Path | None = None,
        reference_visible: bool = False,
        hidden: list[Path] = (),
        one_process: bool = False,
        require_wall: bool = False,
    ):
        self.memory_bytes = memory_bytes
        self.one_process = one_process  # no new process or program (one_process_filter)
        self.require_wall = require_wall
        self.privileged = os.geteuid() == 0
        # Each learner process of a check gets its own uid, so sweeping one spares the others.
        slot, Sandbox._next_slot = Sandbox._next_slot % SLOTS, Sandbox._next_slot + 1
        self.uid = uid_for(os.getpid(), slot) if self.privileged else os.geteuid()
        self.box, self.inputs, self.reference_visible = box, inputs, reference_visible
        self.hidden = list(map(Path, hidden))

    @property
    def workdir(self) -> Path | None:
        return self.box / "work" if self.box else None

    @property
    def import_path(self) -> Path | None:
        """The learner's PYTHONPATH: a folder of links to what it may import (issue 27 L1). Not the
        project's root, whose listing the import system needs: Landlock's right to list a folder
        holds beneath it, and would show the names under solutions/ and grader/checks/."""
        return self.box / "path" if self.box else None

    def make_import_path(self) -> None:
        """Links, in :attr:`import_path`, to the grader's visible packages (and solutions/ when a
        solution or mutant is graded), made by the check (root's), read by the learner."""
        links = [*LEARNER_VISIBLE, *(("solutions",) if self.reference_visible else ())]
        for rel in links:
            link = self.import_path / rel
            link.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            os.symlink(ROOT / rel, link)
        for folder in (self.import_path, self.import_path / "grader"):
            os.chmod(folder, 0o755)

    def view(self) -> list[tuple[str, str, str]]:
        """What the learner's process sees: ``(kind, source, path)`` in mount order; kinds are
        ``ro`` (read-only bind), ``dev`` (a device node), ``tmpfs`` (source = its options),
        ``proc`` and ``link`` (source = the link's target)."""
        view = []
        for d in SYSTEM:
            if os.path.islink(d):
                view.append(("link", os.readlink(d), d))
            elif os.path.isdir(d):
                view.append(("ro", d, d))
        view += [("ro", f"/etc/{name}", f"/etc/{name}") for name in ETC if os.path.exists(f"/etc/{name}")]
        view += [("proc", "", "/proc"), ("tmpfs", "size=1m,mode=0755", "/dev")]
        view += [("dev", f"/dev/{name}", f"/dev/{name}") for name in DEVICES if os.path.exists(f"/dev/{name}")]
        view += [
            ("link", f"/proc/self/fd{tail}", f"/dev/{name}")
            for name, tail in (("fd", ""), ("stdin", "/0"), ("stdout", "/1"), ("stderr", "/2"))
        ]
        view += [("tmpfs", f"size={SHM_SIZE},mode=1777", "/dev/shm"), ("tmpfs", f"size={TMP_SIZE},mode=1777", "/tmp")]
        # After the private /tmp: a venv or project that lives under /tmp (a CI clone) stays visible.
        for prefix in dict.fromkeys([sys.base_prefix, sys.prefix]):  # the interpreter, its venv
            real = os.path.realpath(prefix)
            if not any(real == d or real.startswith(d + "/") for d in SYSTEM):
                view.append(("ro", real, real))
        view += [("ro", str(ROOT / p), str(ROOT / p)) for p in LEARNER_VISIBLE]
        if self.reference_visible:  # the harness grades a solution or mutant: they import solutions.*
            view.append(("ro", str(ROOT / "solutions"), str(ROOT / "solutions")))
        cache = _model_cache()
        if cache is not None:
            view.append(("ro", str(cache), str(cache)))
        if self.inputs is not None:
            view.append(("ro", str(self.inputs), str(self.inputs)))
        if self.box is not None:
            view += [
                ("ro", str(self.box / "src"), str(self.box / "src")),
                ("ro", str(self.import_path), str(self.import_path)),
                ("tmpfs", f"size={WORK_SIZE},mode=0700,uid={self.uid},gid={self.uid}", str(self.workdir)),
            ]
        return view

    def params(self, report_fd: int | None = None) -> dict:
        """Plain data to rebuild this sandbox in another process (:mod:`grader.isolation.zygote`),
        the view computed now, in the check's process; :meth:`preexec` then uses these."""
        self._frozen = {
            "memory_bytes": self.memory_bytes,
            "privileged": self.privileged,
            "uid": self.uid,
            "box": str(self.box or ""),
            "view": self.view(),
            "blocklist": [str(p) for p in self._blocklist_hidden()] if self.privileged else [],
            # also not as root: no new privileges is set first, and memfd_create and fallocate(KEEP_SIZE)
            # hold memory or disk past the caps whoever grades (issue 27 M2, D1)
            "syscall_filter": syscall_filter_available(),
            "one_process_filter": (one_process_filter() or b"").hex() if self.one_process else "",
            "require_wall": self.require_wall,
            "report_fd": report_fd,  # where the child writes the level it got (the zygote's child: its own number)
        }
        return self._frozen

    def one_process_filtered(self) -> bool:
        """Whether the learner's worker loads the one-process filter (libseccomp was there)."""
        return bool(getattr(self, "_frozen", {}).get("one_process_filter"))

    def filters_expected(self) -> int:
        """How many seccomp filters the learner's process holds once its worker started (after
        :meth:`params`): the sandbox's, then the one-process filter its worker loads."""
        return int(bool(self._frozen["syscall_filter"])) + int(bool(self._frozen["one_process_filter"]))

    @classmethod
    def from_params(cls, params: dict) -> Sandbox:
        sandbox = cls.__new__(cls)
        sandbox.memory_bytes, sandbox.privileged = params["memory_bytes"], params["privileged"]
        sandbox.uid = params["uid"]
        sandbox.box = Path(params["box"]) if params["box"] else None
        sandbox._frozen = params
        return sandbox

    def preexec(self) -> None:  # runs in the forked child, after params(): no imports, no locks
        params = self._frozen
        level = self._namespaces(params) if self.privileged else None
        rules = None
        if level is None:  # no namespaces here: the same allowlist through Landlock, built with our rights
            try:
                rules = landlock.ruleset(self._landlock_rules(params["view"]))
                # not root: only the seccomp filter keeps the grader's (same-uid) sockets out of reach
                level = (
                    LANDLOCK if self.privileged else LANDLOCK_ONLY if params.get("syscall_filter") else LANDLOCK_SOCKETS
                )
            except OSError:
                level = USER_ONLY if self.privileged else RLIMITS
        if self.privileged:
            resource.setrlimit(resource.RLIMIT_NPROC, (NPROC_CAP, NPROC_CAP))
            os.setgroups([])
            os.setgid(self.uid)
            os.setuid(self.uid)
        resource.setrlimit(resource.RLIMIT_AS, (self.memory_bytes, self.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_CAP, FILE_SIZE_CAP))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        nofile = NOFILE_CAP if hard == resource.RLIM_INFINITY else min(NOFILE_CAP, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        libc = _libc()
        libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # after setuid, which clears it
        if self.privileged:  # setuid cleared it too: as after an exec, the learner's processes may take
            libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)  # each other's descriptors (grader.inside.fdshare)
        if rules is not None:
            try:
                landlock.enforce(rules)
            except OSError:
                level = USER_ONLY if self.privileged else RLIMITS
        if params.get("syscall_filter"):
            lib, ctx = _syscall_filter()  # built before the fork: loading it takes no lock
            if lib.seccomp_load(ctx) != 0:
                os._exit(71)  # never run the learner with less isolation than was promised
        if params.get("require_wall") and level not in WALLS:
            os._exit(EXIT_NO_WALL)
        if params.get("report_fd") is not None:  # first on the answers pipe: nothing of the learner's ran yet
            os.write(params["report_fd"], codec.dumps({"ok": True, "sandbox": level}))
        if self.workdir is not None:
            os.chdir(self.workdir)  # a cwd from before pivot_root would lead outside the new root

    def _namespaces(self, params: dict) -> str | None:
        """The level the namespaces gave; None where ``unshare`` is refused (no CAP_SYS_ADMIN)."""
        libc = _libc()
        if libc.unshare(_CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC) != 0:
            return None
        libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None)
        _limit_sysv_shm(self.memory_bytes)
        if self.box and self._allowlist(libc, params["view"]):
            return ALLOWLIST
        self._blocklist(libc, [Path(p) for p in params["blocklist"]])
        return BLOCKLIST

    def _landlock_rules(self, view) -> list[tuple[str, int]]:
        """The view as Landlock rules: read what it binds read-only (and /proc: without a pid
        namespace, others' command lines; their files stay out of reach), read and write the
        devices, the work folder and /dev/shm (multiprocessing's semaphores). Nothing of the
        project above what it binds, not even its names (PYTHONPATH is :attr:`import_path`). No
        /tmp: TMPDIR is the work folder."""
        rules = [("/proc", landlock.READ)]
        for kind, source, _ in view:
            if kind == "ro":
                rules.append((source, landlock.READ))
            elif kind == "dev":
                rules.append((source, landlock.READ | landlock.WRITE_FILE))
        if self.workdir is not None:
            rules.append((str(self.workdir), landlock.ALL))
        if os.path.isdir("/dev/shm"):
            rules.append(("/dev/shm", landlock.ALL))
        return rules

    # ---------------------------------------------------------------- the allowlist view
    def _allowlist(self, libc, view) -> bool:
        """An empty tmpfs with the view mounted in it becomes the root; False if refused."""
        new = str(self.box / "stage")
        if (
            _SYS_PIVOT_ROOT is None
            or libc.mount(b"tmpfs", new.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, b"size=1m,mode=0755") != 0
        ):
            return False
        try:
            for kind, source, path in view:
                _mount(libc, kind, source, new + path)
            os.chdir(new)
            if libc.syscall(_SYS_PIVOT_ROOT, b".", b".") != 0:
                raise OSError(ctypes.get_errno(), "pivot_root")
            libc.umount2(b".", _MNT_DETACH)  # the old root, stacked under the new one
            os.chdir("/")
            libc.mount(None, b"/", None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV, None)
            return True
        except OSError:
            os.chdir("/")
            libc.umount2(new.encode(), _MNT_DETACH)
            return False

    # ---------------------------------------------------------------- the blocklist view (fallback)
    def _blocklist_hidden(self) -> list[Path]:
        from grader.engine import cache

        hidden = [ROOT / "grader" / name for name in BLOCKLIST_HIDDEN] + [cache.CACHE_DIR, *_git_dirs(), *self.hidden]
        return hidden if self.reference_visible else [*hidden, ROOT / "solutions"]

    def _blocklist(self, libc, hidden: list[Path]) -> None:
        """The project read-only with ``hidden`` covered by empty folders; the shared writable
        folders read-only except the work folder; a private /dev/shm."""
        root = str(ROOT).encode()
        if libc.mount(root, root, None, _MS_BIND | _MS_REC, None) == 0:
            libc.mount(None, root, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY, None)
        for path in hidden:
            if path.is_dir():
                libc.mount(b"tmpfs", str(path).encode(), b"tmpfs", _MS_RDONLY, b"size=4k,mode=0555")
        shared = [d.encode() for d in SHARED_WRITABLE if os.path.isdir(d) and not os.path.islink(d)]
        for d in shared:
            libc.mount(d, d, None, _MS_BIND | _MS_REC, None)
        if self.workdir is not None:  # a mount of its own stays writable when /tmp turns read-only
            libc.mount(str(self.workdir).encode(), str(self.workdir).encode(), None, _MS_BIND | _MS_REC, None)
        for d in shared:
            libc.mount(None, d, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY, None)
        if os.path.isdir("/dev/shm"):
            libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", 0, f"size={SHM_SIZE},mode=1777".encode())
        self._reach_interpreter(libc)

    def _reach_interpreter(self, libc) -> None:
        """Python may live under a folder other users cannot enter (e.g. /root/.pyenv): cover
        that folder with an empty one that leads to the interpreter's prefix only."""
        prefix = Path(sys.base_prefix).resolve()
        blocked = next((p for p in reversed(prefix.parents) if not os.stat(p).st_mode & 0o001), None)
        if blocked is None or self.box is None:
            return
        stage = str(self.box / "stage").encode()
        if libc.mount(str(prefix).encode(), stage, None, _MS_BIND | _MS_REC, None) != 0:
            return
        libc.mount(b"tmpfs", str(blocked).encode(), b"tmpfs", 0, b"size=64k,mode=0755")
        os.makedirs(prefix, mode=0o755, exist_ok=True)
        libc.mount(stage, str(prefix).encode(), None, _MS_MOVE, None)

    # ---------------------------------------------------------------- memory, clean-up
    def memory_in_use(self, leader: int) -> int:
        """Bytes resident in all the learner's processes when it has more than one (with one,
        RLIMIT_AS caps its pages and only what it holds outside them makes this non-zero). Sums
        RSS, the cheap figure; only when that exceeds the cap sums PSS, which counts pages shared
        after fork() once. Held outside every address space, added to either: memfd files at their
        pages, each socket and pipe at what its buffer may hold (:func:`procfs.held_by_files`),
        and System V shared memory (:meth:`_sysv_shm`). Mapped, memfd and shm pages count in RSS
        too (conservative)."""
        pids = [pid for pid in procfs.pids() if self._owns(pid, leader)]
        # memory no RLIMIT_AS or RSS sees: descriptors, System V segments, files left in a host tmpfs
        outside = procfs.held_by_files(pids) + self._sysv_shm(leader) + self.host_tmpfs_bytes()
        if len(pids) < 2:  # RLIMIT_AS holds its own pages; what it holds outside them adds to them
            return outside + sum(procfs.rss_bytes(pid) for pid in pids) if outside > NOT_COUNTED_ALONE else 0
        rss = sum(procfs.rss_bytes(pid) for pid in pids)
        if rss + outside <= self.memory_bytes:
            return rss + outside
        return sum(procfs.pss_bytes(pid) for pid in pids) + outside

    def _sysv_shm(self, leader: int) -> int:
        """System V shared memory: in no address space once detached. The learner's own IPC
        namespace where it has one (``shmall`` there is the cap too), else its uid's segments."""
        try:
            own_namespace = os.readlink(f"/proc/{leader}/ns/ipc") != os.readlink("/proc/self/ns/ipc")
        except OSError:  # gone
            return 0
        if own_namespace:
            return procfs.sysv_shm_bytes(pid=leader)
        return procfs.sysv_shm_bytes(uid=self.uid)

    def host_tmpfs_bytes(self) -> int:
        """What this learner's uid wrote into the host's /dev/shm, which it reaches without a mount
        namespace (Landlock): memory no process holds, kept after its processes end. Without a uid
        of its own, nothing tells its files from ours."""
        if not self.privileged:
            return 0
        return sum(size for _, size, _ in _files_of(self.uid, HOST_TMPFS))

    def work_bytes(self) -> int:
        """The work folder's files as the host sees them: on the host disk without a mount
        namespace (with one, its own tmpfs of WORK_SIZE holds them and the host folder is empty)."""
        if self.workdir is None:
            return 0
        return sum(size for _, size, _ in _files_of(None, [str(self.workdir)]))

    def others(self, leader: int) -> list[int]:
        """The learner's processes besides ``leader``: every process of its uid where it has one of
        its own (an orphan that left the tree and the session still counts), else the tree."""
        if self.privileged:
            return [pid for pid in procfs.pids() if pid != leader and procfs.owner(pid) == self.uid]
        return procfs.tree(leader)

    def _owns(self, pid: int, leader: int) -> bool:
        if self.privileged:
            return procfs.owner(pid) == self.uid
        return procfs.session(pid) == leader

    def stop_all(self, leader: int | None, resume: bool = False) -> None:
        """SIGSTOP (or SIGCONT) every process of the learner: with uids, those of EVERY learner
        uid on the machine (a burner another exercise left would blur this measurement too),
        resumed as they were stopped; else its process group."""
        sig = signal.SIGCONT if resume else signal.SIGSTOP
        if self.privileged:
            if not resume:
                self._stopped = {self.uid, *learner_uids()}
                note_pause()
            for uid in sorted(getattr(self, "_stopped", {self.uid})):
                signal_uid(uid, sig)
        elif leader is not None:
            try:
                os.killpg(leader, sig)
            except (ProcessLookupError, PermissionError):
                pass
        if resume or leader is None:
            return
        deadline = time.monotonic() + 1.0  # kill() returns before a process on another core has stopped
        stopped = [p for p in procfs.pids() if procfs.owner(p) in self._stopped] if self.privileged else []
        while time.monotonic() < deadline and any(
            procfs.state(p) == "R" for p in [leader, *self.others(leader), *stopped]
        ):
            time.sleep(0.002)

    def sweep(self) -> None:
        """Kill every process of this sandbox's user id (what a fork bomb leaves behind), and
        delete what it wrote into the host's tmpfs folders."""
        if self.privileged:
            sweep_uid(self.uid)


# Each pause of every learner uid (a check measuring) is one byte appended here: a check measuring its
# own learner reads the count before and after, and a change means its learner was stopped meanwhile by
# another check (a disturbed measurement: measured again or not verifiable, never failed).
PAUSES = Path(tempfile.gettempdir()) / "grader-pauses"


def note_pause() -> None:
    try:
        fd = os.open(PAUSES, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError:
        return
    try:
        os.write(fd, b".")
    finally:
        os.close(fd)


def pauses() -> int:
    """How many times every learner uid was paused so far on this machine (see :data:`PAUSES`)."""
    try:
        return os.stat(PAUSES, follow_symlinks=False).st_size
    except OSError:
        return 0


def _limit_sysv_shm(cap: int) -> None:
    """In the learner's new IPC namespace (these settings are its own): no System V segment,
    nor all of them together, beyond the memory cap."""
    for name, value in (("shmmax", cap), ("shmall", cap // procfs.PAGE)):
        try:
            with open(f"/proc/sys/kernel/{name}", "w") as f:
                f.write(str(value))
        except OSError:
            pass


def reference_visible(module_file: str | Path) -> bool:
    """True when what is graded is a solution, a mutant or a variant, what the harness grades:
    ``solutions/<module>.py``, ``solutions/mutants/<module>/*.py``, ``solutions/variants/<module>/*.py``
    for an exercise's module, nothing else under solutions/ (a copy in ``solutions/mine/`` is a
    learner's file, checked against the reference like any). Decided from the path as requested
    (absolute, links not resolved): a link into solutions/ never makes them visible."""
    from grader.course import catalog

    path = Path(os.path.abspath(module_file))
    solutions, modules = ROOT / "solutions", {ex.module for ex in catalog.CATALOG}
    if path.suffix != ".py":
        return False
    if path.parent == solutions:
        return path.stem in modules
    return path.parent.parent in (solutions / "mutants", solutions / "variants") and path.parent.name in modules


def _mount(libc, kind: str, source: str, path: str) -> None:
    """One entry of :meth:`Sandbox.view`, at ``path`` under the new root (parents made as needed)."""
    if kind == "link":
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        os.symlink(source, path)
        return
    if kind in ("ro", "dev") and not os.path.isdir(source):
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644))
    else:
        os.makedirs(path, mode=0o755, exist_ok=True)
    if kind == "proc":  # hidepid=invisible: per mount since Linux 5.8; older kernels refuse the word
        ok = (
            libc.mount(b"proc", path.encode(), b"proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, b"hidepid=invisible") == 0
            or libc.mount(b"proc", path.encode(), b"proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, None) == 0
        )
    elif kind == "tmpfs":
        ok = libc.mount(b"tmpfs", path.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, source.encode()) == 0
    else:
        ok = libc.mount(source.encode(), path.encode(), None, _MS_BIND, None) == 0
        if ok and kind == "ro":
            ok = (
                libc.mount(
                    None, path.encode(), None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV, None
                )
                == 0
            )
    if not ok:
        raise OSError(ctypes.get_errno(), f"mount {kind} {source} on {path}")


def _model_cache() -> Path | None:
    """The folder of the de-quantised model (grader/given/smollm.py), if built."""
    from grader.given import smollm

    folder = smollm.cache_dir().parent
    return folder if folder.is_dir() else None


def _git_dirs() -> list[Path]:
    """The project's git folder; in a worktree (``.git`` is a file) also the shared one."""
    dot_git = ROOT / ".git"
    if dot_git.is_file():
        gitdir = Path(dot_git.read_text().partition("gitdir:")[2].strip())
        common = gitdir.parent.parent if gitdir.parent.name == "worktrees" else gitdir
        return [gitdir, common]
    return [dot_git]


def learner_uids() -> set[int]:
    """The learner uids that have a process now, any check's."""
    return {uid for pid in procfs.pids() if (uid := procfs.owner(pid)) is not None and uid >= _UID_BASE}


def uid_for(check_pid: int, slot: int = 0) -> int:
    """A learner uid of the check process ``check_pid``."""
    return _UID_BASE + check_pid * SLOTS + slot


def sweep_check(check_pid: int) -> None:
    """After a check process ends: kill whatever any of its learners left behind."""
    for slot in range(SLOTS):
        sweep_uid(uid_for(check_pid, slot))


def signal_uid(uid: int, sig: int) -> None:
    """Send ``sig`` to every process of ``uid``: signalled as that uid, nothing else can be hit."""
    if os.geteuid() != 0:
        return
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child only signals and exits
        try:
            os.setuid(uid)
            os.kill(-1, sig)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def sweep_uid(uid: int) -> None:
    """Kill every process of ``uid`` (what a fork bomb leaves behind), then delete what it wrote
    into the host's tmpfs folders (Landlock lets it write the host's /dev/shm): RAM nobody
    counts, and a channel to the next learner."""
    signal_uid(uid, signal.SIGKILL)
    if os.geteuid() != 0:
        return
    for path, _, is_dir in _files_of(uid, HOST_TMPFS):
        try:
            if is_dir:
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass


def _files_of(uid: int | None, roots) -> list[tuple[str, int, bool]]:
    """``(path, bytes allocated, is a folder)`` of the entries under ``roots`` owned by ``uid``
    (None: every entry), links never followed, a folder before what it holds."""
    found, stack = [], [r for r in roots if os.path.isdir(r) and not os.path.islink(r)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                stack.append(entry.path)
            if uid is None or st.st_uid == uid:
                found.append((entry.path, st.st_blocks * 512, is_dir))
    return found
