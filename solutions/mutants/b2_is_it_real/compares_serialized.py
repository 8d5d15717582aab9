"""Compares the records' items as JSON strings (``json.dumps`` without ``sort_keys``): the same
config written in another key order counts as a different config.

The bug of SecPi/SecPi issue #9 ("the same config in a different order inside the JSON won't
validate as identical"; the fix: compare the parsed dictionaries with ==).
"""

import json

from solutions.b2_is_it_real import *  # noqa: F401,F403

KILLED_BY = ("record_diff",)
MISCONCEPTION = "compare config dicts as JSON strings, so the same config in another key order looks changed"


def diff_records(a, b):
    return sorted(
        k for k in ("commit", "config", "data_version", "seed", "environment") if json.dumps(a[k]) != json.dumps(b[k])
    )
