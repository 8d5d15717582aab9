"""Returns the running mean of the losses so far instead of this step's loss: right on the
first call, wrong from the second on (the gradient and the step are right).

The reporting bug of allenai/allennlp issue #4354, "Reported loss is confusing" (the logged loss
was the average over the epoch so far, not the batch's loss); the stub asks for "this step's mean
loss ... computed before the update".
"""

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("grads_after_step", "loss_value")
MISCONCEPTION = "report the running mean of the losses so far instead of this step's loss"
_seen = []


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    out = reference.train_step(model, optimizer, scheduler, batch, amp_dtype)
    _seen.append(out["loss"])
    return {"loss": sum(_seen) / len(_seen), "grad_norm": out["grad_norm"]}
