"""Flags a first loss only when it is NaN or infinite: any finite loss, however far above ln V,
is taken as what a random init gives ("the loss starts high and comes down"), so the course's
15.0 for V = 151936 passes.

The answer "Why categorical_crossentropy gives 16?"
(https://twelvescompany.co.uk/post/why-categorical-crossentropy-gives-16) gives to a first loss of
16: "The initial loss of 16 is often seen when your model's initial weights are randomly
initialized ... This is perfectly normal, and the loss should decrease as the model learns".
"""

import math

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("flags_suspicious_loss",)
MISCONCEPTION = (
    "take any finite first loss as normal for a random init: more than 1 nat above ln V means the init is wrong"
)


def is_suspicious(first_loss, vocab_size):
    return not math.isfinite(first_loss)
