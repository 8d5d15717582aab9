"""X4 — decode time is bytes / bandwidth. Ground truth: the bytes of real models' bf16 weights
(tiny Llamas, and the real Qwen2.5-0.5B / Llama-3-8B configs built on the meta device) divided by
drawn bandwidths, and the roofline computed by the check for drawn sizes (part 6; part 7 §四)."""

import math
from functools import lru_cache

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_number, fail
from grader.checks.support.strategies import llama_configs
from grader.given.tiny_models import LLAMA3_8B, QWEN2_5_0_5B, build_llama
from grader.i18n import _

H100_PEAK, H100_BW = 989e12, 3.35e12


@lru_cache(maxsize=8)
def weight_bytes(config_items: tuple) -> int:
    model = build_llama(dict(config_items), device="meta", dtype=torch.bfloat16)
    return sum(p.nbytes for p in model.parameters())


def _ms(learner, fn, *args) -> float:
    return as_number(getattr(learner, fn)(*args), f"{fn}{args}")


@settings(max_examples=6)
@given(
    st.one_of(st.sampled_from([QWEN2_5_0_5B, LLAMA3_8B]), llama_configs()), strategies.bandwidths, st.floats(8, 1000)
)
def test_decode_floor(learner, config, bw, ridge):
    n = weight_bytes(tuple(sorted(config.items()))) // 2  # bf16: 2 bytes per weight
    # accelerators whose ridge (peak / bandwidth) is far above batch 1's intensity, as real ones are
    for args, course in (((int(8.03e9), 2, H100_PEAK, H100_BW), 4.8), ((n, 2, bw * ridge, bw), None)):
        got = _ms(learner, "decode_floor_ms", *args)
        want = args[0] * args[1] / args[3] * 1e3
        if not math.isclose(got, want, rel_tol=1e-6):
            fail(
                f"decode_floor_ms(n_params={args[0]}, bytes_per_param=2, peak_flops={args[2]:g}, "
                f"bandwidth={args[3]:g})",
                want,
                got,
                hint=_(
                    "every weight byte is read once per step, for 2 FLOPs per weight: at "
                    "batch 1 the step waits for memory, bytes / bandwidth, in milliseconds"
                ),
            )
        if course and abs(got - course) > 0.05:
            fail(_("decode_floor_ms for the course's Llama-3-8B, bf16, on an H100"), course, got)


@given(
    st.integers(10**6, 10**12),
    strategies.weight_bytes_per_param,
    strategies.peak_flops,
    strategies.bandwidths,
    st.integers(1, 4096),
)
def test_step_time_vs_batch(learner, n, bpp, peak, bw, batch):
    def truth(b):
        return max(2 * n * b / peak, n * bpp / bw) * 1e3

    for b in (1, batch):
        got = _ms(learner, "decode_step_ms", n, bpp, b, peak, bw)
        if not math.isclose(got, truth(b), rel_tol=1e-6):
            fail(
                f"decode_step_ms({n}, {bpp}, batch={b}, peak={peak:g}, bw={bw:g})",
                truth(b),
                got,
                hint=_("the step waits for the slower of compute and memory; at small batch that is memory"),
            )
    b1 = _ms(learner, "decode_step_ms", int(8.03e9), 2, 1, H100_PEAK, H100_BW)
    b64 = _ms(learner, "decode_step_ms", int(8.03e9), 2, 64, H100_PEAK, H100_BW)
    if not math.isclose(b1, b64, rel_tol=1e-9):
        fail(
            _("decode_step_ms for the course's Llama-3-8B on an H100: batch 64 against batch 1"),
            b1,
            b64,
            _("batch 64 is still below the ridge (~295), so it takes as long as batch 1"),
        )


# ------------------------------------------------------------------ mistakes named by what the answer does
from grader.checks.support import decode_mistakes  # noqa: E402
from grader.checks.support.mistakes import mistake  # noqa: E402

_FLOOR = ((3 * 10**9 + 7, 2, 4e14, 2e12), {})  # ridge 200: compute time far from the bytes' time
decode_mistakes.declare(__name__, "decode_floor", _FLOOR, lambda n, bpp, peak, bw: (n, bpp, peak, bw))


@mistake(
    "step_time_vs_batch",
    function="decode_step_ms",
    probe=((3 * 10**9 + 7, 2, 512, 4e14, 2e12), {}),
    zh="把算力时间与搬运时间相加了：两者重叠，一步等的是较慢的那个（取最大值）",
    en="adds the compute time to the memory time: they overlap, a step waits for the slower one (the max)",
)
def _sum_not_max(got, n, bpp, b, peak, bw):
    c, m = 2 * n * b / peak * 1e3, n * bpp / bw * 1e3
    return abs(got - (c + m)) <= 1e-6 * (c + m) and min(c, m) > 1e-6 * (c + m)
