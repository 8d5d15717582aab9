"""A4 — gradient accumulation. Ground truth: real torch autograd in this process.

backward_accumulates: the scalar loss L = (w*x - 1)^2 backpropagated k times here, and the
course's case w=3, x=2, k=3 -> 60 as a second check.
matches_full_batch: the same float64 tiny LM (grader/drivers/a4_grad_accum.py, same config
and seed) built here, one backward of the mean cross-entropy over all non-ignored tokens of the concatenated batch;
the learner's accumulated gradients must match it within 1e-6.
"""

import math

import torch
import torch.nn.functional as F
from hypothesis import given, settings

from grader import strategies
from grader.checking import as_number, expect_close, fail

ATOL = 1e-6


def _autograd_k_backwards(w: float, x: float, k: int) -> float:
    wt = torch.tensor(w, dtype=torch.float64, requires_grad=True)
    for _ in range(k):
        ((wt * x - 1) ** 2).backward()
    return float(wt.grad)


@given(strategies.scalar_grad_cases)
def test_backward_accumulates(learner, case):
    for w, x, k in [(3.0, 2.0, 3), case]:  # the course's example first
        what = f"grad_after_k_backwards(w={w}, x={x}, k={k})"
        got = as_number(learner.grad_after_k_backwards(w, x, k), what)
        expected = _autograd_k_backwards(w, x, k)
        if not math.isclose(got, expected, rel_tol=1e-5, abs_tol=1e-6):
            single = _autograd_k_backwards(w, x, 1)
            fail(what, expected, got,
                 "backward() adds into .grad: k calls give k x the single gradient "
                 f"({single:g} here); nothing may clear it in between")


def _make_batches(case: dict):
    g = torch.Generator().manual_seed(case["data_seed"])
    V, T = case["config"]["vocab_size"], case["T"]
    micro = []
    for b, rate in zip(case["sizes"], case["mask_rates"]):
        ids = torch.randint(0, V, (b, T), generator=g)
        labels = torch.randint(0, V, (b, T), generator=g)
        labels[torch.rand(b, T, generator=g) < rate] = -100
        micro.append({"input_ids": ids, "labels": labels})
    if all(bool((mb["labels"] == -100).all()) for mb in micro):  # the full batch needs one target
        micro[-1]["labels"][0, 0] = 0
    stale = {"input_ids": torch.randint(0, V, (2, T), generator=g),
             "labels": torch.randint(0, V, (2, T), generator=g)}
    return micro, stale


def _full_batch_grads(case: dict, micro: list) -> dict:
    from grader.drivers.a4_grad_accum import build_model

    model = build_model(case["config"], case["seed"])
    ids = torch.cat([mb["input_ids"] for mb in micro])
    labels = torch.cat([mb["labels"] for mb in micro])
    logits = model(ids)
    F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100).backward()
    return {name: p.grad for name, p in model.named_parameters()}


@settings(max_examples=8, deadline=None)
@given(strategies.accumulation_cases())
def test_matches_full_batch(learner, case):
    micro, stale = _make_batches(case)
    valid = [int((mb["labels"] != -100).sum()) for mb in micro]
    what = f"accumulate_grads over micro-batches of {case['sizes']} rows with {valid} valid tokens"
    out = learner.drive("grader.drivers.a4_grad_accum:run", config=case["config"], seed=case["seed"],
                        micro_batches=micro, stale_batch=stale)
    expected = _full_batch_grads(case, micro)

    rows = out["forward_rows"]
    if len(rows) < len(micro) or max(rows) > max(case["sizes"]):
        fail(f"{what}: rows per forward call", f"one forward per micro-batch, rows {case['sizes']}", rows,
             "accumulation runs the model on one micro-batch at a time, never on the concatenation")
    grads = out["grads"]
    for name, ref in expected.items():
        got = grads.get(name)
        if got is None:
            fail(f"{what}: {name}.grad", "a gradient tensor", None, "every parameter gets a gradient")
        expect_close(got, ref, f"{what}: {name}.grad", atol=ATOL,
                     hint="mean over all non-ignored tokens of the FULL batch: zero_grad once before the "
                          "micro-batches, never inside; scale each micro-batch's summed loss by 1/(valid "
                          "tokens of the full batch)")
