"""Counts only the prompt as masked: -100 positions before the first real label, ignoring the
padding (a learner who thinks padding "does not count")."""

from solutions.p4_lora_sft import *  # noqa: F401,F403

KILLED_BY = ("masked_fraction",)
MISCONCEPTION = "count only the prompt as left out: the padding is left out of the loss too"


def masked_fraction(labels):
    masked = 0
    for row in labels.tolist():
        kept = [i for i, t in enumerate(row) if t != -100]
        masked += kept[0] if kept else len(row)
    return masked / labels.numel()
