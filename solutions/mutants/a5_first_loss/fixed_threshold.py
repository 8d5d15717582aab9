"""Flags a first loss above a fixed 10 nats, whatever V is: "a loss of 10 is high". For
V = 128 a first loss of 8 (3 nats too high) passes; for V = 151936 a healthy 12.0 is flagged."""

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("flags_suspicious_loss",)


def is_suspicious(first_loss, vocab_size):
    return bool(first_loss > 10.0)
