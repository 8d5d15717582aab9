"""masked_fraction as a float32 mean: ``(labels == -100).float().mean().item()``.

Valid: 6/7 comes back as 0.8571428656578064 instead of 0.8571428571428571 (float32 rounding);
issue 17 found it rejected by an exact comparison.
"""

from solutions.p4_lora_sft import *  # noqa: F401,F403

PASSES = ("masked_fraction",)


def masked_fraction(labels):
    return (labels == -100).float().mean().item()
