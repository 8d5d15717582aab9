"""Seven items, but a timestamp instead of the environment (pip freeze, versions)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("run_record_items",)


def run_record_items():
    return ["run id", "commit", "config", "dataset revision", "seed", "timestamp", "metrics"]
