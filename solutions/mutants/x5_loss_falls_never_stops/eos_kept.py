"""Does not mask anything (returns the example as it is): EOS stays in the loss, the model learns
to stop, and the experiment shows nothing."""

from solutions.x5_loss_falls_never_stops import *  # noqa: F401,F403

KILLED_BY = ("loss_curve", "generations")


def mask_eos(example, eos_id):
    return {"input_ids": list(example["input_ids"]), "labels": list(example["labels"])}
