"""A4 driver: a real float64 tiny language model around the learner's ``accumulate_grads``.

Runs in the learner's process. Builds the model from a plain config and seed (the check builds
the same one and computes the reference gradient itself), leaves stale gradients from a previous
batch in ``.grad``, calls the learner, and returns the gradients by parameter name. The shape
``(rows, T)`` of every forward call, seen by a hook here, is returned too: the check uses it
only to fail with a clearer hint (a hook in the learner's process is forgeable).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


class TinyLM(torch.nn.Module):
    """Embedding -> causal running mean of the prefix + the mean of the whole row -> MLP ->
    output layer: logits (b, T, V).

    The whole-row mean makes every position depend on the row's length and on all its tokens,
    so padding a row (with any token, on either side) changes its logits: rows of micro-batches
    of different lengths cannot share one forward call and still give the reference gradient.
    Plain torch (no transformers import, so the check stays fast).
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
        h = h + h.cumsum(dim=1) / steps[:, None] + h.mean(dim=1, keepdim=True)
        h = h + torch.tanh(self.mlp(self.ln(h)))
        return self.lm_head(h)


def build_model(config: dict, seed: int) -> TinyLM:
    torch.manual_seed(seed)
    return TinyLM(config["vocab_size"], config["n_embd"]).to(torch.float64).train()


def run(learner_module, *, config: dict, seed: int, micro_batches: list, stale_batch: dict) -> dict:
    model = build_model(config, seed)
    logits = model(stale_batch["input_ids"])  # the previous step's gradients, never cleared
    F.cross_entropy(logits.reshape(-1, logits.shape[-1]), stale_batch["labels"].reshape(-1)).backward()

    forward_shapes: list[list[int]] = []
    model.wte.register_forward_pre_hook(lambda mod, args: forward_shapes.append(list(args[0].shape[:2])))
    learner_module.accumulate_grads(model, micro_batches)
    grads = {name: (None if p.grad is None else p.grad.detach().clone()) for name, p in model.named_parameters()}
    return {"grads": grads, "forward_shapes": forward_shapes}
