"""Sorts the profiler's rows by cpu_time_total, the inclusive time: a parent op (aten::linear) then
ranks above the aten::mm that does its work, against the stub's "largest SELF cpu time"."""

from solutions.p5_profile_record import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "P5", ("reads_profiler_table",), "ranks the ops by total time"


def summarize_profile(rows, k=5):
    ops = [r for r in rows if r["name"].startswith("aten::")]
    ops.sort(key=lambda r: r["cpu_time_total_us"], reverse=True)
    by_name = {r["name"]: r for r in rows}
    return {
        "top_ops": [r["name"] for r in ops[:k]],
        "backward_forward_ratio": by_name["backward"]["cpu_time_total_us"] / by_name["forward"]["cpu_time_total_us"],
    }
