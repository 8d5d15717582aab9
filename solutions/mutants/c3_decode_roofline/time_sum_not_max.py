"""Adds compute time and memory time (FLOPs / peak + bytes / bandwidth) instead of taking the larger:
as if the chip could not move data while it computes.

Summing work that overlaps is the slip of GindaChen/nsys-ai issue #574 ("Compute is the plain sum
of every kernel's duration across every stream, so concurrent kernels ... are counted more than
once"); in the roofline, loads and math overlap and the step takes max(FLOPs / peak, bytes /
bandwidth).
"""

import solutions.c3_decode_roofline as reference
from solutions.c3_decode_roofline import *  # noqa: F401,F403

KILLED_BY = ("ridge",)
MISCONCEPTION = "add compute time and memory time: loads and math overlap, the step takes the larger of the two"


def roofline(flops, nbytes, peak_flops, bandwidth):
    intensity = flops / nbytes
    return {
        "intensity": intensity,
        "time_s": flops / peak_flops + nbytes / bandwidth,
        "bound": "memory" if intensity < reference.ridge_point(peak_flops, bandwidth) else "compute",
    }


reference.roofline = roofline
