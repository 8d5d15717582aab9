"""Divides the time after by the time before: the quantized step's speedup comes out below 1, the
inverse of the course's 「memory-bound decode 读的字节少了就快」 (part 6, 4 bit ~ 4x at batch 1)."""

from solutions.c3_decode_roofline import *  # noqa: F401,F403
from solutions.c3_decode_roofline import decode_cost, roofline

EXERCISE, CAUGHT_BY, NAMES = "C3", ("quantization_speedup",), "inverts the ratio"


def quantization_speedup(n_params, tokens_per_step, bytes_before, bytes_after, peak_flops, bandwidth):
    before = roofline(*decode_cost(n_params, tokens_per_step, bytes_before), peak_flops, bandwidth)
    after = roofline(*decode_cost(n_params, tokens_per_step, bytes_after), peak_flops, bandwidth)
    return after["time_s"] / before["time_s"]
