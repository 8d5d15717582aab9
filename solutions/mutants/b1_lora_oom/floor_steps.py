"""Takes the largest micro-batch that fits and floors batch / micro for the accumulation steps: when
the micro-batch does not divide the batch, the effective batch changes (6 with micro 4 -> 4 x 1).

The rounding tloen/alpaca-lora PR #266 ran into ("Due to float flooring math, the computed
gradient_accumulation_steps value can be zero ... you'll end up with a batch size of 32x8 = 256
and not 128"): accumulation must keep micro x steps = the batch.
"""

from solutions.b1_lora_oom import *  # noqa: F401,F403

KILLED_BY = ("plans_that_fit",)
MISCONCEPTION = "take the largest micro-batch that fits and floor the steps: micro x steps must equal the batch"


def batch_plan(batch, max_per_pass):
    micro = min(batch, max_per_pass)
    return micro, max(1, batch // micro)
