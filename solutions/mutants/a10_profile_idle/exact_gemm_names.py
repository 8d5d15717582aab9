"""Counts only ops named exactly aten::mm / aten::bmm / aten::matmul as GEMMs: nn.Linear's
aten::addmm and the fused attention kernels are left out, so a GEMM-heavy step looks overhead-bound.

sgl-project/sglang issue #8739 ("where is aten::mm, aten::matmul, aten::linear in trace?") and
pytorch/pytorch PR #19210 ("when I look at the profiler or the tracer, it's addmm instead of
linear showing up (and sometimes it's matmul)"): the GEMM hides under several names.
"""

import solutions.a10_profile_idle as reference
from solutions.a10_profile_idle import *  # noqa: F401,F403

KILLED_BY = ("classifies_real_profiles",)
MISCONCEPTION = (
    "count only ops named exactly aten::mm/bmm/matmul: addmm (nn.Linear) and attention kernels are GEMM work too"
)
_GEMMS = {"aten::mm", "aten::bmm", "aten::matmul"}


def gemm_attention_share(ops):
    device = reference.device_time_ms(ops)
    heavy = sum(op["self_ms"] for op in ops if op["name"] in _GEMMS)
    return heavy / device if device > 0 else 0.0


reference.gemm_attention_share = gemm_attention_share
