"""The usual run record: six items, no data version."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("run_record_items",)


def run_record_items():
    return ["run_id", "git commit", "config.json", "random seed", "pip freeze", "metrics"]
