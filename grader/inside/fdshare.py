"""LEARNER-VISIBLE: a file descriptor handed to another of the learner's processes without a unix socket.

The learner's seccomp filter refuses it a new unix socket (a socket of the grader's would be in
its reach: grader.isolation.sandbox). multiprocessing hands a descriptor from a forked child to
its parent through ``resource_sharer``, a unix-socket server of the child's own: torch's
DataLoader workers send each batch's shared memory that way, and hang where no socket can be
made. :func:`install` makes ``multiprocessing.reduction.DupFd`` hand it over by pid instead:
the child keeps a duplicate open, the receiver takes a copy with ``pidfd_getfd`` (Linux 5.6+;
the same uid, and the receiver is the child's ancestor). The duplicate stays open until the
child exits, as a resource_sharer descriptor nobody asked for does.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import socket
import sys

_SYS_PIDFD_GETFD = 438  # the same on every architecture (asm-generic)
_KEPT: list[int] = []  # duplicates this process handed over


class PidFd:
    """What is pickled in place of the descriptor: the sender's pid and its duplicate's number."""

    def __init__(self, fd: int):
        self.pid, self.fd = os.getpid(), os.dup(fd)
        _KEPT.append(self.fd)

    def detach(self) -> int:
        if self.pid == os.getpid():
            return os.dup(self.fd)
        pidfd = os.pidfd_open(self.pid)
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall.restype = ctypes.c_long
            fd = libc.syscall(_SYS_PIDFD_GETFD, pidfd, self.fd, 0)
            if fd < 0:
                errno = ctypes.get_errno()
                raise OSError(errno, f"pidfd_getfd of descriptor {self.fd} of process {self.pid}: {os.strerror(errno)}")
            return int(fd)
        finally:
            os.close(pidfd)


def unix_sockets_refused() -> bool:
    try:
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()
    except PermissionError:
        return True
    except OSError:
        return False
    return False


def _patch(reduction) -> None:
    from multiprocessing import context

    original = reduction.DupFd

    def dup_fd(fd: int):
        if context.get_spawning_popen() is not None:  # a process being started: its own channel
            return original(fd)
        return PidFd(fd)

    reduction.DupFd = dup_fd


class _OnImport:
    """Patches ``multiprocessing.reduction`` once it is imported, so nothing is imported before
    the learner's module (an exercise's watch sees the learner's own imports)."""

    NAME = "multiprocessing.reduction"

    def find_spec(self, name, path=None, target=None):
        if name != self.NAME:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                _patch(module)

            spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    """Where this process may not make a unix socket: descriptors go by pid (see the module's text)."""
    if not unix_sockets_refused():
        return
    if _OnImport.NAME in sys.modules:
        _patch(sys.modules[_OnImport.NAME])
    else:
        sys.meta_path.insert(0, _OnImport())
