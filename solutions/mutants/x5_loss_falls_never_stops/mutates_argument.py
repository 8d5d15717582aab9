"""Writes the -100s into the caller's example (``example["labels"][i] = -100``) and returns that
same dict: the right labels, but the argument is changed — the reference example the caller keeps
(to compare, to re-batch, to reuse in a later epoch) has lost its EOS label too.

keras-team/keras issue #11591 ("why preprocess_input of applications changes the input data?
... the x has been change too"); rcmalli/keras-vggface PR #26 ("preprocess_input() does not create
a copy of the input data and works on it directly"). The stub: "A NEW dict (do not modify the
argument)".
"""

from solutions.x5_loss_falls_never_stops import *  # noqa: F401,F403

KILLED_BY = ("loss_curve", "generations")
MISCONCEPTION = "write the -100s into the example you were given: build new lists and return a new dict"


def mask_eos(example, eos_id):
    for i, t in enumerate(example["input_ids"]):
        if t == eos_id:
            example["labels"][i] = -100
    return example
