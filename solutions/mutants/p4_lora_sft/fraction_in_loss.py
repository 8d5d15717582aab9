"""Returns the fraction of tokens IN the loss (labels != -100) instead of the masked fraction:
the course's 85% masked becomes 15%."""

from solutions.p4_lora_sft import *  # noqa: F401,F403

KILLED_BY = ("masked_fraction",)
MISCONCEPTION = "return the fraction of labels IN the loss instead of the fraction left out"


def masked_fraction(labels):
    return float((labels != -100).sum()) / labels.numel()
