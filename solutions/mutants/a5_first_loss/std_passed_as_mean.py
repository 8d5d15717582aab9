"""Passes the intended std positionally, ``nn.init.normal_(w, 0.02)``: the first positional
argument after the tensor is the MEAN, so the weight gets mean 0.02 and the default std 1, and
the first loss lands several nats above ln V.

The slip aiUIUC/pyAIUtils issue #25 reports ("we are initializing the weights by
``tf.random_normal_initializer(stddev)`` but the first argument should be mean ... so it should be
``tf.random_normal_initializer(0.0, stddev)``"); ``torch.nn.init.normal_(tensor, mean=0.0,
std=1.0)`` has the same order.
"""

import torch

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("init_first_loss",)
MISCONCEPTION = "pass the std positionally to normal_(w, 0.02): that sets the mean, and the std stays 1"


def init_output_layer(vocab_size, n_embd):
    return torch.nn.init.normal_(torch.empty(vocab_size, n_embd), 0.02)
