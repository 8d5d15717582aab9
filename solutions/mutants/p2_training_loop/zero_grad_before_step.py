"""zero_grad in the wrong place: between backward() and optimizer.step(), so the step finds no
gradient and the model never learns (part 3, §Autograd)."""

import torch
import torch.nn.functional as F

from grader.char_model import build_model, encode, get_batch, make_corpus

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("zero_grad_set_to_none", "ppl_falls")


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    with torch.autocast(device_type=x.device.type, dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.zero_grad(set_to_none=True)
    optimizer.step()
    scheduler.step()
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}


def train(config):  # the reference's loop, calling this file's train_step
    model = build_model(config["seed"])
    data = encode(make_corpus(config["corpus_chars"], seed=config["data_seed"]))
    optimizer, scheduler = configure_optimizer(model, dict(config, total_steps=config["steps"]))
    g = torch.Generator().manual_seed(config["seed"])
    losses = []
    for _ in range(config["steps"]):
        batch = get_batch(data, config["batch_size"], config["seq_len"], g)
        losses.append(train_step(model, optimizer, scheduler, batch, config.get("amp_dtype"))["loss"])
    return model, losses
