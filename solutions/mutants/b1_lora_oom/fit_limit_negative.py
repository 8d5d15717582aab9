"""Returns (gpu - state) // (per-token bytes x batch) without a floor at 0: when the state alone does
not fit, the "longest sequence that fits" comes out negative.

The case vllm-project/vllm PR #18966 handles in its "estimated maximum model length" message
(printed only when ``estimated_max_len > 0``): no memory left means no sequence fits, length 0.
"""

from solutions.b1_lora_oom import *  # noqa: F401,F403

KILLED_BY = ("plans_that_fit",)
MISCONCEPTION = (
    "return (gpu - state) // per-token bytes without a floor at 0: no memory left means length 0, not negative"
)


def fit_limit(state_bytes, activation_bytes_per_token, batch, gpu_bytes):
    return (gpu_bytes - state_bytes) // (activation_bytes_per_token * batch)
