"""Returns the masked share in percent, as part 7 writes it (「五给实物（85% 被 mask）」): the stub asks
for a fraction between 0 and 1."""

from solutions.p4_lora_sft import *  # noqa: F401,F403
from solutions.p4_lora_sft import IGNORE_INDEX

EXERCISE, CAUGHT_BY, NAMES = "P4", ("masked_fraction",), "returns a percentage"


def masked_fraction(labels):
    return round(100 * (labels == IGNORE_INDEX).float().mean().item(), 4)
