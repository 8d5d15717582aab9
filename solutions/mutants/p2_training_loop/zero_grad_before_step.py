"""zero_grad in the wrong place: between backward() and optimizer.step(), so the step finds no
gradient and the model never learns (part 3, §Autograd)."""

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("grads_after_step", "validation_perplexity")


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    loss = reference.forward_loss(model, x, y, amp_dtype)
    loss.backward()
    grad_norm = reference.clip_gradients(model)
    reference.clear_gradients(optimizer)  # the mistake: before optimizer.step()
    optimizer.step()
    scheduler.step()
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}


reference.train_step = train_step  # the reference's train() calls this one
