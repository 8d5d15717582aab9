"""Pads the micro-batches to the longest one (labels -100 on the padding) and runs one big
forward on the concatenation: all the activations at once, which is what accumulation is
there to avoid. With a causal model and right padding this would even give the right gradient;
the check's micro-batches differ in length and its model sees the whole row, so it does not."""

import torch
import torch.nn.functional as F

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("matches_full_batch",)


def accumulate_grads(model, micro_batches):
    model.zero_grad()
    T = max(mb["input_ids"].shape[1] for mb in micro_batches)

    def pad(t, value):
        return F.pad(t, (0, T - t.shape[1]), value=value)

    ids = torch.cat([pad(mb["input_ids"], 0) for mb in micro_batches])
    labels = torch.cat([pad(mb["labels"], -100) for mb in micro_batches])
    logits = model(ids)
    F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100).backward()
