"""'I log to W&B': the record has metrics and config but no environment, and a fixed run id."""

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import run_record as _run_record

KILLED_BY = ("run_record",)


def run_record(config, data_path, seed, metrics):
    rec = _run_record(config, data_path, seed, metrics)
    rec["environment"] = {}
    rec["run_id"] = "run"
    return rec
