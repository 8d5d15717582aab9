"""Shared by the mutants that get the update's order wrong (not a mutant: the leading underscore
keeps it out of the harness).

``train_step`` of the reference with its update (after the clip) as a list of steps, each
``step(optimizer, scheduler, amp_dtype)``, so a mutant reorders or replaces one. The reference's
order is ``(optimizer_step, scheduler_step, clear)``.
"""

import solutions.p2_training_loop as reference


def optimizer_step(optimizer, scheduler, amp_dtype):
    optimizer.step()


def scheduler_step(optimizer, scheduler, amp_dtype):
    scheduler.step()


def clear(optimizer, scheduler, amp_dtype):
    reference.clear_gradients(optimizer)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None, *, update):
    x, y = batch
    loss = reference.forward_loss(model, x, y, amp_dtype)
    loss.backward()
    grad_norm = reference.clip_gradients(model)
    for step in update:
        step(optimizer, scheduler, amp_dtype)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
