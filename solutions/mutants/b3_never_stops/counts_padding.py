"""Ignores the attention mask: with pad id = EOS every padding position is reported as a
masked EOS."""

from solutions.b3_never_stops import *  # noqa: F401,F403

KILLED_BY = ("collator_diagnosis",)


def suspect_positions(input_ids, attention_mask, labels, eos_id):
    hits = (input_ids == eos_id) & (labels == -100)
    return sorted((int(i), int(j)) for i, j in hits.nonzero().tolist())
