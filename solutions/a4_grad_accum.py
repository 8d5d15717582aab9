"""A4 — gradient accumulation (part 7, §五.A question 4; part 3, Autograd accumulates)."""

import torch
import torch.nn.functional as F


def grad_after_k_backwards(w: float, x: float, k: int) -> float:
    wt = torch.tensor(float(w), dtype=torch.float64, requires_grad=True)
    for _ in range(k):
        loss = (wt * x - 1) ** 2
        loss.backward()  # adds into wt.grad
    return float(wt.grad)


def accumulate_grads(model, micro_batches) -> None:
    model.zero_grad(set_to_none=True)  # once per accumulation step, not per micro-batch
    n_valid = sum(int((mb["labels"] != -100).sum()) for mb in micro_batches)
    for mb in micro_batches:
        logits = model(mb["input_ids"])
        V = logits.shape[-1]
        # sum over this micro-batch's valid tokens, divided by the FULL batch's count
        loss = (
            F.cross_entropy(logits.reshape(-1, V), mb["labels"].reshape(-1), ignore_index=-100, reduction="sum")
            / n_valid
        )
        loss.backward()
