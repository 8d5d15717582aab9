"""The course's trap: "GEMM and attention are 60% of the device time, so the step is healthy".
Classifies by the GEMM/attention share alone and never looks at wall vs device time."""

from solutions.a10_profile_idle import *  # noqa: F403
from solutions import a10_profile_idle as _sol

KILLED_BY = ("classifies_real_profiles",)


def classify_step(summary):
    return "compute-bound" if _sol.gemm_attention_share(summary["ops"]) >= 0.5 else "overhead-bound"
