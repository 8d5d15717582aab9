"""The decode floor's named mistakes (issue 29), one place for every check that asks for
``decode_floor_ms`` (X4 in FLOP/s and bytes/s, B4 in TFLOPS and TB/s): the floor of a batch-1
decode step is the weights' bytes over the bandwidth (part 6)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from grader.checks.support import mistakes
from grader.checks.support.mistakes import gives, mistake, ratio


def declare(
    where: str,
    key_point: str,
    probe: tuple[tuple, dict],
    in_si: Callable[[float, float, float, float], tuple[float, float, float, float]],
) -> None:
    """``in_si(n_params, bytes_per_param, peak, bandwidth)``: the contract's arguments in parameters,
    bytes, FLOP/s and bytes/s. ``where``: the declaring check module (``__name__``)."""
    first = len(mistakes.DECLARED)

    def floor_ms(*args):
        n, bpp, _, bw = in_si(*args)
        return n * bpp / bw * 1e3

    mistake(
        key_point,
        function="decode_floor_ms",
        probe=probe,
        zh="返回的是秒，题目要毫秒",
        en="returns seconds where milliseconds are asked",
    )(lambda got, *a: ratio(got, floor_ms(*a), 1e-3))
    mistake(
        key_point,
        function="decode_floor_ms",
        probe=probe,
        zh="混用了 GiB 与 GB（或 TiB 与 TB）：带宽的 GB/s、TB/s 是 10^9、10^12 字节每秒，字节也按十进制换算",
        en="mixes GiB and GB (or TiB and TB): bandwidth's GB/s and TB/s are 10^9 and 10^12 bytes per second, "
        "count the bytes the same way",
    )(lambda got, *a: any(ratio(got, floor_ms(*a), f) for f in (2**30 / 1e9, 1e9 / 2**30, 1e12 / 2**40, 2**40 / 1e12)))
    mistake(
        key_point,
        function="decode_floor_ms",
        probe=probe,
        zh="忘了乘每个参数的字节数（算成 1 字节/参数）",
        en="leaves out the bytes per parameter (1 byte each)",
    )(lambda got, *a: ratio(got, floor_ms(*a), 1 / in_si(*a)[1]))
    mistake(
        key_point,
        function="decode_floor_ms",
        probe=probe,
        zh="用算力算了时间（2 × 参数 / 峰值）：batch 1 的 decode 受带宽限制，时间是字节 / 带宽",
        en="computes the time from the FLOPs (2 x params / peak): decode at batch 1 is memory-bound, bytes / bandwidth",
    )(gives(lambda *a: 2 * in_si(*a)[0] / in_si(*a)[2] * 1e3, floor_ms))
    mistakes.DECLARED[first:] = [dataclasses.replace(m, where=where) for m in mistakes.DECLARED[first:]]
