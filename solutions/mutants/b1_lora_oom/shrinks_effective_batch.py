"""Just lowers the batch: no accumulation, so the effective batch shrinks."""

from solutions.b1_lora_oom import *  # noqa: F403

KILLED_BY = ("plans_that_fit",)


def accumulation_plan(batch, max_micro_batch):
    return min(batch, max_micro_batch), 1
