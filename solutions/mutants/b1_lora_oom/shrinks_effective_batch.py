"""Just lowers the batch: no accumulation, so the effective batch shrinks."""

from solutions.b1_lora_oom import *  # noqa: F403

KILLED_BY = ("plans_that_fit",)


def batch_plan(batch, max_per_pass):
    return min(batch, max_per_pass), 1
