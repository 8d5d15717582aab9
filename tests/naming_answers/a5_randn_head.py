"""Initialises the output layer with plain torch.randn (std 1): part 7's answer to §五.A question 4,
「15.0 明显偏高，初始 logits 太大，检查输出层初始化」 — this is the init that gives such a first loss."""

import torch

from solutions.a5_first_loss import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A5", ("init_first_loss",), "initialises the output layer with std 1"


def init_output_layer(vocab_size, n_embd):
    return torch.randn(vocab_size, n_embd)
