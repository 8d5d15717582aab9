"""A5 — first-step loss. Ground truth: ``F.cross_entropy`` on all-zero logits (a uniform
prediction) computed in this process, for each drawn V.

init_first_loss: the learner's ``init_output_layer`` returns only the weight (plain data); this
process checks its shape, dtype and finiteness, puts it into a real tiny GPT built here (nanoGPT's
shape, one block) and computes the first loss on random targets: it must be within 0.4 nats of
ln V (the course: 5.07 against ln 128 = 4.85 counts as "about ln V"; PyTorch's default nn.Linear
init lands ~0.2 above, He/kaiming init ~1 above, std 1 several nats above). No learner code runs
while the loss is computed, so it cannot be forged.

The contract's paths: is_suspicious on losses within ln V +- 0.5 (False), 1.5+ above (True) and
1.5+ below (False: only "far above" is flagged); expected_first_loss at rel 1e-6 (float32 is
right); init_output_layer's dtype (float32), shape and the first loss it gives.
"""

import math

import torch
import torch.nn.functional as F
from hypothesis import given, settings

from grader.checks.support import strategies
from grader.checks.support.checking import as_number, as_tensor, expect_equal, fail

INIT_TOL_NATS = 0.4


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


def first_loss(weight: torch.Tensor, *, vocab_size: int, n_embd: int, n_head: int, batch: int, seq_len: int,
               seed: int) -> tuple[float, float]:
    """A tiny GPT built from ``seed`` with ``weight`` as its output layer: (first loss, logit std)."""
    torch.manual_seed(seed)
    model = TinyGPT(vocab_size, n_embd, n_head, seq_len)
    with torch.no_grad():
        model.lm_head.weight.copy_(weight)
    g = torch.Generator().manual_seed(seed + 1)
    idx = torch.randint(0, vocab_size, (batch, seq_len), generator=g)
    targets = torch.randint(0, vocab_size, (batch, seq_len), generator=g)
    with torch.no_grad():
        logits = model(idx)
        loss = F.cross_entropy(logits.reshape(-1, vocab_size), targets.reshape(-1))
    return float(loss), float(logits.std())


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
    # Far BELOW ln V is not flagged here ("only losses far ABOVE"): a label leak, not the init.
    cases += [(max(0.0, uniform_loss(V) - off), V, False) for V, off in [high]]
    for loss, V, expected in cases:
        lnv = uniform_loss(V)
        expect_equal(_flag(learner, loss, V), expected,
                     f"is_suspicious({loss:.4g}, {V})",
                     hint=f"ln V = {lnv:.4g}, so this loss is {loss - lnv:+.3g} nats from it: flag a first loss "
                          "more than 1 nat above ln V (natural log of the vocab size)")


@settings(max_examples=8, deadline=None)
@given(strategies.tiny_gpt_shapes())
def test_init_first_loss(learner, shape):
    V, d = shape["vocab_size"], shape["n_embd"]
    weight = as_tensor(learner.init_output_layer(V, d), f"init_output_layer({V}, {d})",
                       shape=(V, d), dtype=torch.float32)
    loss, logit_std = first_loss(weight.detach().clone(), **shape)
    lnv = uniform_loss(V)
    if abs(loss - lnv) > INIT_TOL_NATS:
        fail(f"first loss of a tiny GPT (V={V}, d={d}) with init_output_layer's weight",
             f"ln V = {lnv:.4f} +- {INIT_TOL_NATS}", f"{loss:.4f} (logits std {logit_std:.3g})",
             "the hidden vectors have unit variance per dim after ln_f, so a logit's std is about "
             "std(weight) x sqrt(d): keep it well below 1 (e.g. std 0.02)")
