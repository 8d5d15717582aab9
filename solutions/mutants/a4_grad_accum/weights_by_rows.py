"""Weights each micro-batch's mean loss by its number of ROWS (sequences) instead of its valid
tokens: right only when every row has the same number of labelled tokens.

Sample-count weighting as mosaicml/composer PR #3273 found it ("current_batch_size =
sum(get_num_samples_in_batch ...)": the PR adds accumulation over tokens), and the token-count
fix of ml-explore/mlx-lm PR #1413 ("the accumulated update is biased toward shorter examples").
"""

import torch.nn.functional as F

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("matches_full_batch",)
MISCONCEPTION = "weight each micro-batch by its number of rows instead of its number of valid tokens"


def accumulate_grads(model, micro_batches):
    model.zero_grad(set_to_none=True)
    rows = sum(mb["input_ids"].shape[0] for mb in micro_batches)
    for mb in micro_batches:
        if not bool((mb["labels"] != -100).any()):
            continue  # nothing to learn here (and its mean would be NaN)
        logits = model(mb["input_ids"])
        mean = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), mb["labels"].reshape(-1), ignore_index=-100)
        (mean * (mb["input_ids"].shape[0] / rows)).backward()
