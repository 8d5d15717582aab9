"""Gives the uniform first loss in bits, math.log(V, 2): the course's 「第一步 loss 该是 ln V」
(part 7, 二) is in nats; PyTorch's cross_entropy uses the natural log."""

import math

from solutions.a5_first_loss import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A5", ("expected_first_loss",), "uses log base 2"


def expected_first_loss(vocab_size):
    return math.log(vocab_size, 2)
