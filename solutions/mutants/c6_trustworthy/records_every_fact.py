"""Records every fact the run knows (host, user, start time, output folder, notes) besides the
seven items: the record is no longer the minimal one, and its items cannot be told from the rest."""

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import run_record as _run_record

KILLED_BY = ("run_record",)
MISCONCEPTION = "record every fact the run knows instead of the minimal record's items"


def run_record(run):
    return {**{k: v for k, v in run.items() if k not in ("config", "data_path", "seed", "metrics")}, **_run_record(run)}
