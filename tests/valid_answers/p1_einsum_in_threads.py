"""A valid P1 answer that computes each head in a thread of a pool (threads are watched, not forbidden):
einsum, its own mask and softmax, nothing of the fused kernel's."""

import math
from concurrent.futures import ThreadPoolExecutor

import torch


def _head(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("td,sd->ts", q, k) / math.sqrt(d)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return torch.einsum("ts,sd->td", weights, v)


def causal_attention(q, k, v):
    b, h = q.shape[0], q.shape[1]
    with ThreadPoolExecutor(max_workers=2) as pool:
        heads = list(pool.map(lambda i: _head(q[i // h, i % h], k[i // h, i % h], v[i // h, i % h]), range(b * h)))
    return torch.stack(heads).view(q.shape[0], q.shape[1], q.shape[2], v.shape[3])
