"""A run record with six items: the environment (pip freeze) is missing, so three months later
nobody knows which torch produced the number (part 6: seven items, or "it seemed so then")."""

from solutions.p5_profile_record import *  # noqa: F401,F403
from solutions.p5_profile_record import make_run_record as _reference

KILLED_BY = ("run_record",)


def make_run_record(run):
    record = _reference(run)
    del record["environment"]
    return record
