"""A5 — first-step loss (part 7, §五.A question 5; part 3, the ln V sanity check)."""

import math

import torch

MARGIN_NATS = 1.0


def expected_first_loss(vocab_size: int) -> float:
    return math.log(vocab_size)  # -ln(1/V): uniform over V tokens


def is_suspicious(first_loss: float, vocab_size: int) -> bool:
    return bool(first_loss > expected_first_loss(vocab_size) + MARGIN_NATS)


def init_output_layer(vocab_size: int, n_embd: int):
    # GPT-2 / Llama initializer_range: std 0.02, so logits have std 0.02 * sqrt(d) << 1
    return torch.randn(vocab_size, n_embd) * 0.02
