"""Run a command; print its wall time and the CPU seconds of every process it started.

``time`` (and RUSAGE_CHILDREN) count a process only when its parent waits for it: the check
processes' fork server and the zygote are never waited for, so their children's CPU (most of a
grading's) is lost and the cores look idle. Here this process is the subreaper of the whole tree
(PR_SET_CHILD_SUBREAPER): every orphan comes back to it, is waited for, and counts.

    scripts/treetime.py make test FRESH=1     # last line: treetime: wall W s, user U s, sys S s
"""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def run(argv: list[str], **popen) -> tuple[int, float, float, float]:
    """(exit status, wall s, user s, sys s) of ``argv`` and every process it left behind; call it
    from a process with no other children (they would be waited for too)."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    start = time.monotonic()
    code = subprocess.Popen(argv, **popen).wait()
    while True:  # the orphans: they end with the pipes of the processes that started them
        try:
            os.wait()
        except ChildProcessError:
            break
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return code, time.monotonic() - start, usage.ru_utime, usage.ru_stime


if __name__ == "__main__":
    code, wall, user, system = run(sys.argv[1:])
    print(f"treetime: wall {wall:.1f} s, user {user:.1f} s, sys {system:.1f} s", file=sys.stderr)
    sys.exit(code)
