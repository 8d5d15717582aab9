"""What the kernel says about a process, read from ``/proc`` outside it (the one reader).

The checks' measurements (A1 and C7 peak memory, X1 and C7 CPU time) and the sandbox's memory
poll read the learner's process from the check's side, in the grader's own pid namespace: the
learner's code cannot change what these return. A process that is gone reads as ``{}`` / 0.
"""

from __future__ import annotations

import os

PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")


def _read(pid: int | str, name: str) -> str:
    with open(f"/proc/{pid}/{name}") as f:
        return f.read()


def status(pid: int | str) -> dict[str, int]:
    """The ``kB`` fields of ``/proc/<pid>/status`` in bytes: ``VmPeak``, ``VmHWM``, ``VmRSS``, ..."""
    out = {}
    for line in _read(pid, "status").splitlines():
        key, _, value = line.partition(":")
        parts = value.split()
        if len(parts) == 2 and parts[1] == "kB":
            out[key] = int(parts[0]) * 1024
    return out


def seccomp_filters(pid: int | str) -> int | None:
    """How many seccomp filters the kernel holds for the process (``Seccomp_filters``, Linux 5.9+;
    None on an older kernel)."""
    for line in _read(pid, "status").splitlines():
        key, _, value = line.partition(":")
        if key == "Seccomp_filters":
            return int(value)
    return None


def _stat_fields(pid: int | str) -> list[str]:
    text = _read(pid, "stat")
    return text[text.rindex(")") + 2 :].split()  # the name may hold spaces and ")": field 3 on


def cpu_times(pid: int | str) -> dict:
    """``{"self_s", "children_s"}``: utime + stime (all its threads) and cutime + cstime (its
    child processes once waited for, e.g. a pool's workers after join/terminate)."""
    utime, stime, cutime, cstime = (int(f) / TICK for f in _stat_fields(pid)[11:15])  # fields 14-17
    return {"self_s": utime + stime, "children_s": cutime + cstime}


def session(pid: int) -> int | None:
    try:
        return int(_stat_fields(pid)[3])  # field 6
    except (OSError, ValueError, IndexError):
        return None


def parent(pid: int) -> int | None:
    try:
        return int(_stat_fields(pid)[1])  # field 4
    except (OSError, ValueError, IndexError):
        return None


def tree(leader: int) -> list[int]:
    """Pids of ``leader``'s other processes: its descendants and the members of its session."""
    found, parents = set(), {}
    for pid in pids():
        if pid == leader:
            continue
        if session(pid) == leader:
            found.add(pid)
        parents[pid] = parent(pid)
    for pid in parents:
        seen, p = set(), parents[pid]
        while p is not None and p > 1 and p not in seen:
            if p == leader:
                found.add(pid)
                break
            seen.add(p)
            p = parents.get(p)
    return sorted(found)


def state(pid: int) -> str | None:
    """The process's state letter (R running, S sleeping, T stopped, ...); None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rpartition(b")")[2].split()[0].decode()
    except (OSError, IndexError):
        return None


def owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def rss_bytes(pid: int) -> int:
    try:
        return int(_read(pid, "statm").split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def pss_bytes(pid: int) -> int:
    """Proportional set size: pages shared after fork() count once among their sharers."""
    try:
        for line in _read(pid, "smaps_rollup").splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


# What the kernel may hold for one socket or pipe, in no address space: a socket's send buffer
# (net.core.wmem_default, what a process gets unless it asks for less) and a pipe's default 16 pages
# (bigger ones, F_SETPIPE_SZ, are held to fs.pipe-user-pages-soft per user). Measured: 400 filled
# socketpairs held 88 MiB, 400 filled pipes 21 MiB.
SOCKET_BUFFER = 212992
PIPE_BUFFER = 16 * PAGE


def held_by_files(pids) -> int:
    """Memory the processes hold through their open files, each file once: memfd files at the
    pages written (fstat through the fd link), and each socket and pipe at what its buffer may
    hold (conservative: whether it is filled cannot be read from outside)."""
    seen: dict[tuple[int, int] | str, int] = {}
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            link = f"/proc/{pid}/fd/{fd}"
            try:
                target = os.readlink(link)
                if target.startswith(("socket:", "pipe:")):
                    seen[target] = SOCKET_BUFFER if target[0] == "s" else PIPE_BUFFER
                    continue
                if not target.startswith("/memfd:"):
                    continue
                st = os.stat(link)
            except OSError:
                continue
            seen[(st.st_dev, st.st_ino)] = st.st_blocks * 512  # pages written, not a sparse size
    return sum(seen.values())


def _tasks(pid: int | str) -> list[str]:
    """The thread ids of a live process (none once it is gone)."""
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []


def run_delays(pid: int | str) -> dict[int, float]:
    """``{thread id: seconds}`` each live thread of a process has waited on a run queue, runnable
    but not running (``schedstat``'s second field): the time the machine's load took from it.
    Empty where the kernel has no schedstat."""
    out: dict[int, float] = {}
    for tid in _tasks(pid):
        try:
            out[int(tid)] = int(_read(pid, f"task/{tid}/schedstat").split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            continue
    return out


def pids() -> list[int]:
    return [int(e.name) for e in os.scandir("/proc") if e.name.isdigit()]


def children_cpu(pid: int | str) -> dict[int, float]:
    """``{child pid: CPU seconds}`` of a process's LIVE children (``/proc/<pid>/task/*/children``):
    the scheduler's nanosecond run time (``schedstat``) where the kernel has it, else utime +
    stime (10 ms ticks). Sampled while a call runs, it says whether several children ran at once
    (X1: a pool's workers); a child that exits between two reads is left out."""
    out: dict[int, float] = {}
    for tid in _tasks(pid):
        try:
            kids = _read(pid, f"task/{tid}/children").split()
        except OSError:
            continue
        for child in kids:
            try:
                try:
                    out[int(child)] = int(_read(child, "schedstat").split()[0]) / 1e9
                except (OSError, IndexError, ValueError):
                    out[int(child)] = cpu_times(child)["self_s"]
            except (OSError, ValueError, IndexError):
                pass
    return out


def sysv_shm_bytes(pid: int | None = None, uid: int | None = None) -> int:
    """Bytes of System V shared memory held (resident + swapped), which no process's RSS shows
    once detached: of ``pid``'s IPC namespace (read from a thread that joins it: the file shows
    the reader's namespace), else of the segments ``uid`` created in ours."""
    if pid is None:
        return _shm_total(uid)
    out = [0]

    def read_inside() -> None:
        import ctypes

        try:
            fd = os.open(f"/proc/{pid}/ns/ipc", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return
        try:
            if ctypes.CDLL(None, use_errno=True).setns(fd, 0x08000000) == 0:  # CLONE_NEWIPC: this thread only
                out[0] = _shm_total(None)
        finally:
            os.close(fd)

    import threading

    reader = threading.Thread(target=read_inside, name="sysv-shm", daemon=True)
    reader.start()
    reader.join()
    return out[0]


def _shm_total(uid: int | None) -> int:
    try:
        with open("/proc/sysvipc/shm") as f:  # opened by this thread: its IPC namespace
            lines = f.read().splitlines()
    except OSError:
        return 0
    head, total = lines[0].split() if lines else [], 0
    col = {name: i for i, name in enumerate(head)}
    for line in lines[1:]:
        f = line.split()
        try:
            if uid is None or int(f[col["cuid"]]) == uid:
                total += (int(f[col["rss"]]) + int(f[col["swap"]])) if "rss" in col else int(f[col["size"]])
        except (KeyError, IndexError, ValueError):
            continue
    return total
