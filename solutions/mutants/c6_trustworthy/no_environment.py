"""'I log to W&B': the record has metrics and config but no environment, and a fixed run id."""

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import run_record as _run_record

KILLED_BY = ("run_record",)


def run_record(run):
    rec = _run_record(run)
    rec["environment"] = {}
    rec["run_id"] = "run"
    return rec
