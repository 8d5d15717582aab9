"""Records "unknown" as the commit when git does not answer for the working directory (no repository
there, or one git refuses for its owner): the record then identifies no code. The workaround of
zhengyuf/IMavatar#31 (the commit lookup failing with "Repository not found at .", answered "Simply
comment the line out") and this project's own reference before issue 29, which accepted it; part 6:
七项记录少任何一项，结论都只是”当时好像是这样”."""

import subprocess

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import run_record as _run_record

KILLED_BY = ("run_record",)
MISCONCEPTION = "record a placeholder commit when git does not answer: the record then identifies no code"


def run_record(run):
    rec = _run_record(run)
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        rec["commit"] = out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        rec["commit"] = "unknown"
    return rec
