"""Records the data file's path as its version: the data can change under the same name."""

import hashlib

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import run_record as _run_record

KILLED_BY = ("changed_data", "run_record")


def run_record(run):
    rec = _run_record(run)
    rec["data_version"] = hashlib.sha256(str(run["data_path"]).encode()).hexdigest()
    return rec
