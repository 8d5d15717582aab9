"""'Decode is slow because the GPU cannot compute fast enough': time = FLOPs / peak only."""

from solutions.c3_decode_roofline import *  # noqa: F403
from solutions.c3_decode_roofline import ridge_point

KILLED_BY = ("ridge", "quantization_speedup")


def roofline(flops, nbytes, peak_flops, bandwidth):
    intensity = flops / nbytes
    return {
        "intensity": intensity,
        "time_s": flops / peak_flops,
        "bound": "memory" if intensity < ridge_point(peak_flops, bandwidth) else "compute",
    }


def quantization_speedup(n_params, tokens_per_step, bytes_before, bytes_after, peak_flops, bandwidth):
    return 1.0
