"""Landlock (Linux 5.13+): a file-system wall a process puts on itself, no privilege needed.

Where the grader may not make namespaces (a container without CAP_SYS_ADMIN, which refuses
``unshare``; a learner's own machine, not root), the learner's process still gets the
allowlist :meth:`grader.isolation.sandbox.Sandbox.view` computes: it may read (and list) what
the view binds read-only, read and write its work folder and its devices, and nothing else;
TCP bind and connect are refused (ABI 4+), and signals and abstract unix sockets reach only
processes inside its own wall (ABI 6+). Landlock also refuses ptrace of any process outside
it. Built in two halves: :func:`ruleset` opens the allowed paths (before the uid changes: the
grader's own rights), :func:`enforce` seals the process (after ``PR_SET_NO_NEW_PRIVS``), and
what it does is inherited across fork and exec. Kernel documentation: userspace-api/landlock.
"""

from __future__ import annotations

import ctypes
import functools
import os

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every architecture (asm-generic)
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH, _RULE_NET_PORT = 1, 2

# access rights on files (ABI 1 unless noted)
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_MAKE_AND_REMOVE = sum(1 << b for b in range(4, 13))  # remove_dir .. make_sym
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, 3, 5
_FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # rights a rule on a file may carry
_NET_TCP = 0b11  # bind, connect (ABI 4)
_SCOPE_ALL = 0b11  # abstract unix sockets, signals (ABI 6)

READ = EXECUTE | READ_FILE | READ_DIR
ALL = (1 << 16) - 1  # every right on files this module knows (those the kernel lacks are dropped)


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


@functools.cache
def _libc():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


@functools.cache
def abi() -> int:
    """The kernel's Landlock ABI version; 0 where it has none (or it is disabled)."""
    version = _libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(0, int(version))


def _handled(version: int) -> int:
    rights = EXECUTE | WRITE_FILE | READ_FILE | READ_DIR | _MAKE_AND_REMOVE
    for since, right in ((2, REFER), (3, TRUNCATE), (5, IOCTL_DEV)):
        if version >= since:
            rights |= right
    return rights


def ruleset(rules: list[tuple[str, int]]) -> int:
    """A ruleset fd allowing ``(path, rights)`` for each rule (rights beneath a folder, or on
    one file); a path that does not exist is skipped. Raises OSError where Landlock is missing."""
    version = abi()
    if version < 1:
        raise OSError(38, "Landlock is not available here")
    handled = _handled(version)
    attr = _RulesetAttr(handled, _NET_TCP if version >= 4 else 0, _SCOPE_ALL if version >= 6 else 0)
    size = ctypes.sizeof(_RulesetAttr) if version >= 6 else (16 if version >= 4 else 8)
    libc = _libc()
    fd = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    for path, rights in rules:
        try:
            target = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            is_dir = os.path.isdir(f"/proc/self/fd/{target}")
            rule = _PathBeneath((rights if is_dir else rights & _FILE_ONLY) & handled, target)
            if rule.allowed and libc.syscall(_ADD_RULE, fd, _RULE_PATH_BENEATH, ctypes.byref(rule), 0) != 0:
                raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}")
        finally:
            os.close(target)
    return fd


def enforce(fd: int) -> None:
    """Seal this process (and all it starts) under the ruleset; needs PR_SET_NO_NEW_PRIVS first."""
    try:
        if _libc().syscall(_RESTRICT_SELF, fd, ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(fd)
