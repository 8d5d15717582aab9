"""Returns the output-layer weight as (d, V), "input features first" like ``h @ W``: but
``nn.Linear(d, V).weight`` is (out, in) = (V, d), so the grader cannot put it into the model."""

import torch

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("init_first_loss",)


def init_output_layer(vocab_size, n_embd):
    return torch.randn(n_embd, vocab_size) * 0.02
