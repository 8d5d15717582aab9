"""Check side: the walls around the learner's process and the check's handle on it. The handle
(learner.py), the zygote it forks from (zygote.py), the sandbox (sandbox.py: what the process
sees, its limits), the source scan for forbidden calls (scan.py), /proc read from outside
(procfs.py) and the grader's careful file access (files.py). The learner's process never sees
these files: zygote.py and sandbox.py set it up before its view is mounted, and from then on
the grader code that runs there is grader/inside/ (with grader/given/ and grader/drivers/)."""
