"""P2 — the twenty-line training loop (part 3). Reference answer."""

import math

import torch
import torch.nn.functional as F

from grader.char_model import build_model, encode, get_batch, make_corpus


def lr_at(step, *, max_lr, min_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= total_steps:
        return min_lr
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * progress))


def configure_optimizer(model, config):
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["max_lr"], betas=(0.9, 0.95),
                                  weight_decay=config["weight_decay"])
    sched = dict(max_lr=config["max_lr"], min_lr=config["min_lr"],
                 warmup_steps=config["warmup_steps"], total_steps=config["total_steps"])
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: lr_at(s, **sched) / config["max_lr"])
    return optimizer, scheduler


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    with torch.autocast(device_type=x.device.type, dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
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
