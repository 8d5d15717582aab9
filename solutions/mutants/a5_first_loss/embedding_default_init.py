"""Initialises the output layer like ``nn.Embedding`` (N(0, 1)), as when tying it to the input
embedding's default init: logits have std ~sqrt(d) and the first loss is far above ln V.

pytorch/pytorch issue #3121 ("the weight initialization in the Embedding class is normal_(0, 1) ...
It took me many hours to find out the reason why my net did not train") and
huggingface/transformers PR #26441 ("lm_head weights were initialized with variance of 1 ...
resulted in initial cross-entropy loss of ~110").
"""

import torch

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("init_first_loss",)
MISCONCEPTION = "initialise the output layer like nn.Embedding (std 1): logits of std ~sqrt(d) start far above ln V"


def init_output_layer(vocab_size, n_embd):
    return torch.nn.Embedding(vocab_size, n_embd).weight.detach().clone()
