"""A5 driver: a real tiny GPT whose output layer is the learner's ``init_output_layer``.

Runs in the learner's process. Builds the model from a seed, replaces the output-layer weight
with the learner's tensor, runs one forward of random tokens against random targets and
returns the first loss. The check compares it with ln V computed in its own process.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


class Block(torch.nn.Module):
    def __init__(self, n_embd: int, n_head: int):
        super().__init__()
        self.n_head = n_head
        self.ln_1, self.ln_2 = torch.nn.LayerNorm(n_embd), torch.nn.LayerNorm(n_embd)
        self.c_attn = torch.nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = torch.nn.Linear(n_embd, n_embd)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(n_embd, 4 * n_embd), torch.nn.GELU(),
                                       torch.nn.Linear(4 * n_embd, n_embd))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, C)
        x = x + self.c_proj(y)
        return x + self.mlp(self.ln_2(x))


class TinyGPT(torch.nn.Module):
    """nanoGPT's shape, one block: wte + wpe -> block -> ln_f -> lm_head (no bias)."""

    def __init__(self, vocab_size: int, n_embd: int, n_head: int, block_size: int):
        super().__init__()
        self.wte = torch.nn.Embedding(vocab_size, n_embd)
        self.wpe = torch.nn.Embedding(block_size, n_embd)
        self.block = Block(n_embd, n_head)
        self.ln_f = torch.nn.LayerNorm(n_embd)
        self.lm_head = torch.nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1], device=idx.device)
        return self.lm_head(self.ln_f(self.block(self.wte(idx) + self.wpe(pos))))


def run(learner_module, *, vocab_size: int, n_embd: int, n_head: int, batch: int, seq_len: int,
        seed: int) -> dict:
    torch.manual_seed(seed)
    model = TinyGPT(vocab_size, n_embd, n_head, seq_len)
    weight = learner_module.init_output_layer(vocab_size, n_embd)
    if not isinstance(weight, torch.Tensor) or tuple(weight.shape) != (vocab_size, n_embd):
        return {"error": f"{type(weight).__name__} of shape {tuple(getattr(weight, 'shape', ()))}"}
    with torch.no_grad():
        model.lm_head.weight.copy_(weight.detach().to(torch.float32))
    g = torch.Generator().manual_seed(seed + 1)
    idx = torch.randint(0, vocab_size, (batch, seq_len), generator=g)
    targets = torch.randint(0, vocab_size, (batch, seq_len), generator=g)
    with torch.no_grad():
        logits = model(idx)
        loss = F.cross_entropy(logits.reshape(-1, vocab_size), targets.reshape(-1))
    return {"loss": float(loss), "logit_std": float(logits.std())}
