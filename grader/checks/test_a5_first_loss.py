"""A5 — first-step loss. Ground truth: ``F.cross_entropy`` on all-zero logits (a uniform
prediction) computed in this process, for each drawn V.

init_gives_ln_v: the learner's output-layer weight is put into a real tiny GPT in the learner's
process (grader/drivers/a5_first_loss.py); its first loss on random targets must be within
0.4 nats of that ln V (the course: 5.07 against ln 128 = 4.85 counts as "about ln V"; PyTorch's
default nn.Linear init lands ~0.2 above, He/kaiming init ~1 above, std 1 several nats above).
"""

import math

import torch
import torch.nn.functional as F
from hypothesis import given, settings

from grader import strategies
from grader.checking import as_number, expect_equal, fail

INIT_TOL_NATS = 0.4


def uniform_loss(vocab_size: int) -> float:
    """The loss of a model that predicts uniformly: cross-entropy of zero logits."""
    return float(F.cross_entropy(torch.zeros(1, vocab_size, dtype=torch.float64), torch.tensor([0])))


@settings(max_examples=20)
@given(strategies.vocab_sizes)
def test_expected_first_loss(learner, vocab_size):
    for V in [151936, 128, vocab_size]:  # the course's two vocabularies first
        got = as_number(learner.expected_first_loss(V), f"expected_first_loss({V})")
        expected = uniform_loss(V)
        if not math.isclose(got, expected, rel_tol=1e-6):
            fail(f"expected_first_loss({V})", expected, got,
                 "uniform over V tokens: -ln(1/V) = ln V, in nats (natural log)")


def _flag(learner, loss: float, V: int):
    got = learner.is_suspicious(loss, V)
    if type(got) is not bool:
        fail(f"is_suspicious({loss:.4g}, {V}) must return a bool", "True or False", got)
    return got


@settings(max_examples=20)
@given(strategies.fine_first_losses, strategies.high_first_losses)
def test_flags_suspicious_loss(learner, fine, high):
    cases = [(15.0, 151936, True), (5.07, 128, False)]  # the course's two first losses
    cases += [(uniform_loss(V) + off, V, False) for V, off in [fine]]
    cases += [(uniform_loss(V) + off, V, True) for V, off in [high]]
    for loss, V, expected in cases:
        lnv = uniform_loss(V)
        expect_equal(_flag(learner, loss, V), expected,
                     f"is_suspicious({loss:.4g}, {V}) with ln V = {lnv:.4g} ({loss - lnv:+.3g} nats)",
                     hint="flag a first loss more than 1 nat above ln V (natural log of the vocab size)")


@settings(max_examples=8, deadline=None)
@given(strategies.tiny_gpt_shapes())
def test_init_gives_ln_v(learner, shape):
    V, d = shape["vocab_size"], shape["n_embd"]
    out = learner.drive("grader.drivers.a5_first_loss:run", **shape)
    if "error" in out:
        fail(f"init_output_layer({V}, {d})", f"a torch.Tensor of shape ({V}, {d})", out["error"])
    loss = as_number(out["loss"], f"first loss of a tiny GPT (V={V}, d={d}) with your output layer")
    lnv = uniform_loss(V)
    if abs(loss - lnv) > INIT_TOL_NATS:
        fail(f"first loss of a tiny GPT (V={V}, d={d}) with init_output_layer's weight",
             f"ln V = {lnv:.4f} +- {INIT_TOL_NATS}", f"{loss:.4f} (logits std {out['logit_std']:.3g})",
             "the hidden vectors have unit variance per dim after ln_f, so a logit's std is about "
             "std(weight) x sqrt(d): keep it well below 1 (e.g. std 0.02)")
