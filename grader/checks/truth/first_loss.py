"""First losses, measured: ln V as cross_entropy gives it (A5, C2), and the first loss of C2's
real small char GPT with its output layer scaled."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from grader.given.char_model import GPTConfig, build_model, encode, get_batch, make_corpus

SMALL = GPTConfig(n_layer=1, n_head=2, n_embd=32, block_size=16)  # C2's char GPT


def uniform_loss(vocab_size: int) -> float:
    """ln V as cross_entropy measures it: the loss of zero logits (a uniform prediction)."""
    return float(F.cross_entropy(torch.zeros(1, vocab_size, dtype=torch.float64), torch.tensor([0])))


def char_batch(seed: int, B: int = 4):
    """A batch of the char GPT's corpus drawn from ``seed``: (inputs, targets)."""
    data = encode(make_corpus(4_000, seed=seed % 1000))
    return get_batch(data, B, SMALL.block_size, torch.Generator().manual_seed(seed))


def real_first_loss(seed: int, head_scale: float) -> float:
    """The first loss of the char GPT built from ``seed`` with its output layer times ``head_scale``."""
    model = build_model(seed % 10_000, SMALL)
    with torch.no_grad():
        model.lm_head.weight.mul_(head_scale)
        x, y = char_batch(seed, B=16)  # 256 targets: the shipped init's loss stays well inside C2's OK_GAP
        return float(F.cross_entropy(model(x).view(-1, SMALL.vocab_size), y.view(-1)))
