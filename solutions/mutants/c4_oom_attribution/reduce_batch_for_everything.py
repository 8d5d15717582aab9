"""The average answer: 'reduce the batch' whatever the block (it does nothing for weights or state)."""

from solutions.c4_oom_attribution import *  # noqa: F403

KILLED_BY = ("remedy_per_block",)


def remedies(block):
    return ["smaller_batch_with_accumulation"]
