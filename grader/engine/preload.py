"""What the check processes' fork server imports once, so each check process starts warm.

Every exercise's checks run in a fresh process (runner.grade_exercise), forked from a server
that has already imported what checks use; importing torch, transformers and peft anew for
each of ~200 runs would dominate the grading time. A one-exercise re-grade preloads only the
light part (LIGHT), so the server itself starts fast. Nothing here starts threads or touches a
tensor, so forking afterwards is safe.
"""

import gc
import importlib
import os
import socket
import struct
import sys

LIGHT = (
    "numpy",
    "pytest",
    "hypothesis",
    "grader.engine.plugin",
    "grader.checks.support.checking",
    "grader.checks.support.strategies",
)
HEAVY = LIGHT + (
    "torch",
    "torch.nn.functional",
    "transformers",
    "transformers.models.llama.modeling_llama",
    "peft",
    "grader.given.tiny_models",
)


def load(names) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a missing optional library only costs speed
            pass
    # What was imported lives as long as the process: a forked child's collections skip it
    # (torch & co.: ~4e5 objects, ~0.25 s of CPU per full collection) and, never writing to
    # its headers, leave its pages shared (Python's gc.freeze documentation, for fork servers).
    gc.freeze()


# ---------------------------------------------------------------- the fork server's door
class _Door:
    """Stands in for ``multiprocessing.reduction`` in the fork server's loop (Python 3.11's server
    authenticates nobody, and runs whatever is pickled to it as the grader): a request is served
    only from the grader that started the server, its parent, by the connection's SO_PEERCRED pid.
    Another's (a learner's process of the grader's uid: issue 27 Z1) gets a child that exits before
    it reads anything (its channel is closed), and is logged on the grader's stderr."""

    def __init__(self, reduction):
        self._reduction = reduction
        self.refused: set[int] = set()  # the channel of a refused request's child, by number

    def __getattr__(self, name):
        return getattr(self._reduction, name)

    def recvfds(self, sock, size):
        self.refused.clear()  # of earlier requests: each number is reused
        fds = self._reduction.recvfds(sock, size)
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        peer = struct.unpack("3i", raw)[0]
        if peer == os.getppid():
            return fds
        for fd in fds:
            os.close(fd)
        print(f"grader fork server: refused a request of pid {peer}, not the grader's", file=sys.stderr, flush=True)
        closed_r, w = os.pipe()  # the child reads EOF: no preparation data, nothing unpickled
        os.close(w)
        self.refused.add(closed_r)
        r, closed_w = os.pipe()  # where the server writes the child's pid and status: nobody reads
        os.close(r)
        return [closed_r, closed_w]


def guard_fork_server() -> None:
    """In the fork server (its preload imports this module): serve the grader only (:class:`_Door`)."""
    from multiprocessing import forkserver

    if isinstance(forkserver.reduction, _Door):
        return
    door = forkserver.reduction = _Door(forkserver.reduction)
    serve_one = forkserver._serve_one

    def _serve_one(child_r, fds, unused_fds, handlers):
        if child_r in door.refused:  # a refused request's child: ends before anything is read
            os._exit(1)
        return serve_one(child_r, fds, unused_fds, handlers)

    forkserver._serve_one = _serve_one
