"""Forward/backward instead of backward/forward: reports ~0.5 where part 6 says backward ~ 2x
forward."""

from solutions.p5_profile_record import *  # noqa: F401,F403
from solutions.p5_profile_record import summarize_profile as _reference

KILLED_BY = ("reads_profiler_table",)


def summarize_profile(rows, k=5):
    out = _reference(rows, k)
    out["backward_forward_ratio"] = 1 / out["backward_forward_ratio"]
    return out
