"""Counts a generation as stopped when EOS appears anywhere, however late: a model that rambles
for 200 tokens and then stops would pass."""

from solutions.x5_loss_falls_never_stops import *  # noqa: F401,F403

KILLED_BY = ("generations",)


def stops(new_tokens, eos_id, answer_len):
    return eos_id in list(new_tokens)
