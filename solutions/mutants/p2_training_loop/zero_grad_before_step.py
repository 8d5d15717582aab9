"""zero_grad in the wrong place: between backward() and optimizer.step(), so the step finds no
gradient and the model never learns (part 3, §Autograd)."""

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403
from solutions.mutants.p2_training_loop import _update_order

KILLED_BY = ("grads_after_step", "validation_perplexity")


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    return _update_order.train_step(
        model,
        optimizer,
        scheduler,
        batch,
        amp_dtype,
        update=(
            _update_order.clear,  # the mistake: before optimizer.step()
            _update_order.optimizer_step,
            _update_order.scheduler_step,
        ),
    )


reference.train_step = train_step  # the reference's train() calls this one
