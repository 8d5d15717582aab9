"""Ranks ops by total time (children included) instead of self time: wrapper ops such as
aten::linear or aten::cross_entropy_loss climb above the addmm/mm that do the work (part 6:
read the table by self time)."""

from solutions.p5_profile_record import *  # noqa: F401,F403
from solutions.p5_profile_record import summarize_profile as _reference

KILLED_BY = ("reads_profiler_table",)


def summarize_profile(rows, k=5):
    out = _reference(rows, k)
    ops = sorted(
        (r for r in rows if r["name"].startswith("aten::")), key=lambda r: (-r["cpu_time_total_us"], r["name"])
    )
    out["top_ops"] = [r["name"] for r in ops[:k]]
    return out
