"""'Tune the learning rate': accepts any first loss, never compares it with ln V."""

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("first_loss_verdict",)


def first_loss_verdict(first_loss, vocab_size):
    return "ok"
