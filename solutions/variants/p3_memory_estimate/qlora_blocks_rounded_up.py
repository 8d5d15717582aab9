"""QLoRA's NF4 base with one fp32 scale per STARTED block of 64 weights (a partial block costs a
whole scale), as a new learner read the contract.

Valid: within the range the check accepts (fractional blocks up to whole blocks per tensor).
"""

import math

from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import lora_parameter_count, parameter_count

PASSES = ("course_llama3_8b",)


def course_memory_gb(config, lora_r=16):
    n = parameter_count(config)
    lora = lora_parameter_count(config, lora_r)
    nf4 = 0.5 * n + 4 * math.ceil(n / 64)
    return {"full": n * 16 / 1e9, "lora": (n * 2 + lora * 16) / 1e9, "qlora": (nf4 + lora * 16) / 1e9}
