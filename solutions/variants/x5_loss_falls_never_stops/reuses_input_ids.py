"""mask_eos returns a new dict, leaves its argument alone, and reuses the unchanged ``input_ids``
list (only the labels are new). Valid: the stub asks for "A NEW dict (do not modify the
argument)", nothing about new lists; issue 29 found it rejected ("returned the example it was
given (or its lists)").
"""

from solutions.x5_loss_falls_never_stops import *  # noqa: F401,F403

PASSES = ("loss_curve",)


def mask_eos(example, eos_id):
    ids = example["input_ids"]
    return {
        "input_ids": ids,
        "labels": [-100 if t == eos_id else label for t, label in zip(ids, example["labels"], strict=True)],
    }
