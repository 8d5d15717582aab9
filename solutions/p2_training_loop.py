"""P2 — the twenty-line training loop (part 3). Reference answer."""

import math

import torch
import torch.nn.functional as F

from grader.given.char_model import build_model, encode, get_batch, make_corpus


def lr_at(step, *, max_lr, min_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= total_steps:
        return min_lr
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * progress))


def configure_optimizer(model, config):
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=config["max_lr"], betas=(0.9, 0.95), weight_decay=config["weight_decay"]
    )
    sched = dict(
        max_lr=config["max_lr"],
        min_lr=config["min_lr"],
        warmup_steps=config["warmup_steps"],
        total_steps=config["total_steps"],
    )
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: lr_at(s, **sched) / config["max_lr"])
    return optimizer, scheduler


def forward_logits(model, x, amp_dtype=None):
    """The forward pass, under autocast when amp_dtype is given (part 3 addition 1): the matmuls
    run in bf16 while the parameters stay fp32 master weights."""
    with torch.autocast(device_type=x.device.type, dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        return model(x)


def masked_cross_entropy(logits, y):
    """Mean cross-entropy over the tokens, in fp32 (``.float()``, part 3 addition 2); targets of
    -100 are not counted (ignore_index=-100 is the SFT loss mask, part 3)."""
    return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)


def forward_loss(model, x, y, amp_dtype=None):
    """The loss of one batch: autocast forward, then the fp32 masked loss outside autocast (part 3)."""
    return masked_cross_entropy(forward_logits(model, x, amp_dtype), y)


def clip_gradients(model):
    """Scales the gradients down to a total norm of at most 1.0 and returns the norm before
    clipping (part 3 addition 3: one bad batch cannot throw the weights away)."""
    return torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)


def clear_gradients(optimizer):
    """backward() accumulates into .grad, so every step clears it; set_to_none=True drops the
    tensors instead of writing zeros into them (part 3, must-remember)."""
    optimizer.zero_grad(set_to_none=True)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    """One step of part 3's loop, in its order: loss, backward, clip, step, schedule, clear."""
    x, y = batch
    loss = forward_loss(model, x, y, amp_dtype)
    loss.backward()
    grad_norm = clip_gradients(model)
    optimizer.step()
    scheduler.step()
    clear_gradients(optimizer)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}


def train(config):
    model = build_model(config["seed"])
    data = encode(make_corpus(config["corpus_chars"], seed=config["data_seed"]))
    optimizer, scheduler = configure_optimizer(model, dict(config, total_steps=config["steps"]))
    g = torch.Generator().manual_seed(config["seed"])
    losses = []
    for _ in range(config["steps"]):
        batch = get_batch(data, config["batch_size"], config["seq_len"], g)
        losses.append(train_step(model, optimizer, scheduler, batch, config.get("amp_dtype"))["loss"])
    return model, losses
