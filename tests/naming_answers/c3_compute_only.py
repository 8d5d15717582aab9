"""Times a step by its FLOPs alone: part 7's misconception table, 「decode 慢是 GPU 算不过来」 (its
answer: 「强度 1 远低于 ridge 295，算力时间接近 0」)."""

from solutions.c3_decode_roofline import *  # noqa: F401,F403
from solutions.c3_decode_roofline import ridge_point

EXERCISE, CAUGHT_BY, NAMES = "C3", ("ridge",), "counts the compute time only"


def roofline(flops, nbytes, peak_flops, bandwidth):
    intensity = flops / nbytes
    return {
        "intensity": intensity,
        "time_s": flops / peak_flops,
        "bound": "compute" if intensity >= ridge_point(peak_flops, bandwidth) else "memory",
    }
