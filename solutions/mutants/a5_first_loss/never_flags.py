"""A flag that never fires: every first loss is accepted."""

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("flags_suspicious_loss",)


def is_suspicious(first_loss, vocab_size):
    return False
