"""Makes the leaf tensor anew inside the loop, so each backward fills a fresh .grad: part 7's
misconception-table row 「两次 backward 之间不 zero_grad 是 bug」 (its answer: 「Autograd 的语义是累加」) turned
around."""

import torch

from solutions.a4_grad_accum import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A4", ("repeated_backward",), "keeps one backward's gradient"


def grad_after_k_backwards(w, x, k):
    for _ in range(k):
        wt = torch.tensor(float(w), dtype=torch.float64, requires_grad=True)
        ((wt * x - 1) ** 2).backward()
    return float(wt.grad)
