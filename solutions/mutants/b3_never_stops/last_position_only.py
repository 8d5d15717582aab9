"""Looks only at the last column of the batch: finds the masked EOS of the longest row only."""

from solutions.b3_never_stops import *  # noqa: F401,F403

KILLED_BY = ("collator_diagnosis",)


def suspect_positions(input_ids, attention_mask, labels, eos_id):
    j = input_ids.shape[1] - 1
    return [
        (i, j)
        for i in range(input_ids.shape[0])
        if input_ids[i, j] == eos_id and attention_mask[i, j] == 1 and labels[i, j] == -100
    ]
