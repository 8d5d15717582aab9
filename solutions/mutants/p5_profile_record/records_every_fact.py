"""Records every fact the run knows (host, user, start time, output folder, notes) besides the
seven items: the record is no longer the minimal one, and its items cannot be told from the rest."""

from solutions.p5_profile_record import *  # noqa: F401,F403
from solutions.p5_profile_record import make_run_record as _reference

KILLED_BY = ("run_record",)
MISCONCEPTION = "record every fact the run knows instead of the minimal record's items"


def make_run_record(run):
    return {
        **{k: v for k, v in run.items() if k not in ("run_id", "repo_dir", "config", "data_path", "seed", "metrics")},
        **_reference(run),
    }
