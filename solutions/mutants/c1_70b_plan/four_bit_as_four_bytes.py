"""Reads QLoRA's "4-bit base" as 4 bytes per parameter instead of 4 bits (half a byte): the 70B
base alone becomes 280 GB instead of 35 GB.

The bits/bytes slip of mlco2/ecologits issue #84 ("Quantization bit (or byte) value") and
cfregly/ai-performance-engineering issue #11 (a sizing formula that multiplies by 8 bits per byte
where it should divide).
"""

from solutions.c1_70b_plan import *  # noqa: F401,F403
from solutions.mutants.c1_70b_plan import _frozen_base

KILLED_BY = ("qlora_state",)
MISCONCEPTION = "read the 4-bit base as 4 bytes per parameter: 4 bits is half a byte"


def state_bytes(n_base, n_adapter, method):
    return _frozen_base.state_bytes(n_base, n_adapter, method, wrong_for="qlora", base_bytes_per_param=4)
