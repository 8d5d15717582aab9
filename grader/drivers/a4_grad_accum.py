"""A4 driver: a real float64 tiny language model around the learner's ``accumulate_grads``.

Runs in the learner's process. Builds the model from a plain config and seed (the check builds
the same one), leaves stale gradients from a previous batch in ``.grad``, calls the learner, and
returns the gradients by parameter name plus the number of rows of every forward call.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


class TinyLM(torch.nn.Module):
    """Embedding -> causal running mean of the prefix -> MLP -> output layer: logits (b, T, V).

    Plain torch (no transformers import, so the check stays fast); position t sees tokens <= t.
    """

    def __init__(self, vocab_size: int, n_embd: int):
        super().__init__()
        self.wte = torch.nn.Embedding(vocab_size, n_embd)
        self.ln = torch.nn.LayerNorm(n_embd)
        self.mlp = torch.nn.Linear(n_embd, n_embd)
        self.lm_head = torch.nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, input_ids):
        h = self.wte(input_ids)
        steps = torch.arange(1, h.shape[1] + 1, dtype=h.dtype, device=h.device)
        h = h + h.cumsum(dim=1) / steps[:, None]  # causal mixing: a mean over the prefix
        h = h + torch.tanh(self.mlp(self.ln(h)))
        return self.lm_head(h)


def build_model(config: dict, seed: int) -> TinyLM:
    torch.manual_seed(seed)
    return TinyLM(config["vocab_size"], config["n_embd"]).to(torch.float64).train()


def run(learner_module, *, config: dict, seed: int, micro_batches: list, stale_batch: dict) -> dict:
    model = build_model(config, seed)
    logits = model(stale_batch["input_ids"])  # the previous step's gradients, never cleared
    F.cross_entropy(logits.reshape(-1, logits.shape[-1]), stale_batch["labels"].reshape(-1)).backward()

    forward_rows: list[int] = []
    model.wte.register_forward_pre_hook(lambda mod, args: forward_rows.append(int(args[0].shape[0])))
    learner_module.accumulate_grads(model, micro_batches)
    grads = {name: (None if p.grad is None else p.grad.detach().clone())
             for name, p in model.named_parameters()}
    return {"grads": grads, "forward_rows": forward_rows}
