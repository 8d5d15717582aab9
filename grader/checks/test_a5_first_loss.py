"""A5 — first-step loss. Ground truth: ``F.cross_entropy`` on all-zero logits (a uniform
prediction) computed in this process, for each drawn V.

init_first_loss: the learner's ``init_output_layer`` returns only the weight (plain data); this
process checks its shape, dtype and finiteness, puts it into a real tiny GPT built here (nanoGPT's
shape, one block) and computes the first loss on random targets: it must be within 0.4 nats of
ln V (the course: 5.07 against ln 128 = 4.85 counts as "about ln V"; PyTorch's default nn.Linear
init lands ~0.2 above, He/kaiming init ~1 above, std 1 several nats above). No learner code runs
while the loss is computed, so it cannot be forged.

The contract's paths: is_suspicious on losses within ln V +- 0.5 (False), more than 1.5 above
(True: the course's "5.07 ≈ ln 128 = 4.85" is fine, "ln 151936 ≈ 11.9；15.0 明显偏高" is clearly
too high; it states no boundary between, so exactly +1.5 is not asked) and more than 1.5 below
(False: only "far above" is flagged); expected_first_loss at rel 1e-6 (float32 is
right); init_output_layer's dtype (float32), shape and the first loss it gives.
"""

import math

import torch
import torch.nn.functional as F
from hypothesis import given, settings

from grader.checks.support import strategies
from grader.checks.support.checking import as_number, as_tensor, expect_equal, fail
from grader.checks.truth.first_loss import uniform_loss
from grader.i18n import _

INIT_TOL_NATS = 0.4


class Block(torch.nn.Module):
    def __init__(self, n_embd: int, n_head: int):
        super().__init__()
        self.n_head = n_head
        self.ln_1, self.ln_2 = torch.nn.LayerNorm(n_embd), torch.nn.LayerNorm(n_embd)
        self.c_attn = torch.nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = torch.nn.Linear(n_embd, n_embd)
        self.mlp = torch.nn.Sequential(
            torch.nn.Linear(n_embd, 4 * n_embd), torch.nn.GELU(), torch.nn.Linear(4 * n_embd, n_embd)
        )

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


def first_loss(
    weight: torch.Tensor, *, vocab_size: int, n_embd: int, n_head: int, batch: int, seq_len: int, seed: int
) -> tuple[float, float]:
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


@settings(max_examples=20)
@given(strategies.vocab_sizes)
def test_expected_first_loss(learner, vocab_size):
    for V in [151936, 128, vocab_size]:  # the course's two vocabularies first
        got = as_number(learner.expected_first_loss(V), f"expected_first_loss({V})")
        expected = uniform_loss(V)
        if not math.isclose(got, expected, rel_tol=1e-6):
            fail(
                f"expected_first_loss({V})",
                expected,
                got,
                _("uniform over V tokens: -ln(1/V) = ln V, in nats (natural log)"),
            )


def _flag(learner, loss: float, V: int):
    got = learner.is_suspicious(loss, V)
    if type(got) is not bool:
        fail(_("is_suspicious({loss:.4g}, {V}) must return a bool", loss=loss, V=V), _("True or False"), got)
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
        expect_equal(
            _flag(learner, loss, V),
            expected,
            f"is_suspicious({loss:.4g}, {V})",
            hint=_(
                "ln V = {lnv:.4g}, so this loss is {value:+.3g} nats from it: flag a "
                "first loss more than 1 nat above ln V (natural log of the vocab size)",
                lnv=lnv,
                value=loss - lnv,
            )
            if loss >= lnv
            else _(
                "ln V = {lnv:.4g}, so this loss is {value:+.3g} nats from it: an initialisation cannot "
                "give a first loss far below ln V (look for labels leaking into the inputs instead)",
                lnv=lnv,
                value=loss - lnv,
            ),
        )


@settings(max_examples=8, deadline=None)
@given(strategies.tiny_gpt_shapes())
def test_init_first_loss(learner, shape):
    V, d = shape["vocab_size"], shape["n_embd"]
    weight = as_tensor(
        learner.init_output_layer(V, d), f"init_output_layer({V}, {d})", shape=(V, d), dtype=torch.float32
    )
    loss, logit_std = first_loss(weight.detach().clone(), **shape)
    lnv = uniform_loss(V)
    if abs(loss - lnv) > INIT_TOL_NATS:
        fail(
            _("first loss of a tiny GPT (V={V}, d={d}) with init_output_layer's weight", V=V, d=d),
            _("ln V = {lnv:.4f} +- {INIT_TOL_NATS}", lnv=lnv, INIT_TOL_NATS=INIT_TOL_NATS),
            _("{loss:.4f} (logits std {logit_std:.3g})", loss=loss, logit_std=logit_std),
            _(
                "the hidden vectors have unit variance per dim after ln_f, so a logit's "
                "std is about std(weight) x sqrt(d): keep it well below 1 (e.g. std 0.02)"
            ),
        )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import close, mistake  # noqa: E402

for _wrong, _zh, _en in [
    (
        math.log2,
        "用了以 2 为底的对数（bits）：交叉熵用自然对数，单位是 nats",
        "uses log base 2 (bits): cross-entropy uses the natural log, in nats",
    ),
    (
        math.log10,
        "用了以 10 为底的对数：交叉熵用自然对数，单位是 nats",
        "uses log base 10: cross-entropy uses the natural log, in nats",
    ),
    (
        lambda v: 1.0 / v,
        "返回的是均匀分布的概率 1/V，不是它的交叉熵 -ln(1/V)",
        "returns the uniform probability 1/V, not its cross-entropy -ln(1/V)",
    ),
    (
        lambda v: float(v),
        "返回的是词表大小本身，不是均匀预测的交叉熵",
        "returns the vocabulary size itself, not the cross-entropy of a uniform prediction",
    ),
]:
    mistake(
        "expected_first_loss",
        "flags_suspicious_loss",
        function="expected_first_loss",
        probe=((128,), {}),
        zh=_zh,
        en=_en,
    )(lambda got, v, _w=_wrong: v > 2 and close(got, _w(v)) and not close(_w(v), math.log(v)))

mistake(
    "flags_suspicious_loss",
    function="is_suspicious",
    probe=((0.5, 128), {}),
    zh="把远低于 ln V 的首步 loss 也标成了可疑：这里只标远高于 ln V 的（远低于是标签泄漏，不是初始化的问题）",
    en="flags a first loss far below ln V: only losses far above it are flagged here (far below is a label leak, "
    "not "
    "the init)",
)(lambda got, loss, v: got is True and loss < math.log(v) - 1.5)


# A fixed threshold agrees with any "ln V + margin" rule on most drawn inputs (both say no below 10):
# named only on its probe, a first loss of 9.0 with V = 128 (4 nats above ln V), which it alone passes.
mistake(
    "flags_suspicious_loss",
    function="is_suspicious",
    probe=((9.0, 128), {}),
    zh="拿首步 loss 和固定的 10 nats 比，不管词表多大：首步 loss 该在哪里要看 V（ln V）",
    en="compares the first loss with a fixed 10 nats, whatever the vocabulary: where it should be depends on V (ln V)",
)(lambda got, loss, v: got is (loss > 10.0) and (loss > 10.0) != (loss > math.log(v) + 1.0))


def _std_is(got, v, d, std: float) -> bool:
    """A (V, n_embd) weight whose std is ``std``, within 4 standard errors of a sample std (~1/sqrt(2n))."""
    if not (
        isinstance(got, torch.Tensor)
        and tuple(got.shape) == (v, d)
        and got.dtype.is_floating_point
        and got.numel() >= 64
    ):
        return False
    return abs(float(got.double().std()) / std - 1) < 4 / math.sqrt(2 * got.numel())


_INIT = ((512, 64), {})  # 32768 weights: their std is known to ~1%, and V != n_embd
mistake(
    "init_first_loss",
    function="init_output_layer",
    probe=_INIT,
    zh="输出层按 std 1 初始化了（randn / nn.Embedding 的默认）：logits 很大，首步 loss 比 ln V 高出好几个 nats",
    en="initialises the output layer with std 1 (randn, nn.Embedding's default): the logits are large and the "
    "first "
    "loss comes out several nats above ln V",
)(lambda got, v, d: _std_is(got, v, d, 1.0))
mistake(
    "init_first_loss",
    function="init_output_layer",
    probe=_INIT,
    zh="用了 He / kaiming 初始化（std = sqrt(2 / n_embd)）：对输出层太大，首步 loss 比 ln V 高约 1 nat",
    en="uses He / kaiming init (std = sqrt(2 / n_embd)): too large for the output layer, the first loss comes out "
    "~1 "
    "nat above ln V",
)(lambda got, v, d: _std_is(got, v, d, math.sqrt(2 / d)))
mistake(
    "init_first_loss",
    function="init_output_layer",
    probe=_INIT,
    zh="返回的权重形状是 (n_embd, V)，转置了：nn.Linear(n_embd, V).weight 的形状是 (V, n_embd)",
    en="returns the weight transposed, (n_embd, V): nn.Linear(n_embd, V).weight has shape (V, n_embd)",
)(lambda got, v, d: v != d and isinstance(got, torch.Tensor) and tuple(got.shape) == (d, v))
mistake(
    "init_first_loss",
    function="init_output_layer",
    probe=_INIT,
    zh="返回的是 float64（例如 numpy 生成后 torch.from_numpy）：模型的权重是 float32",
    en="returns float64 (e.g. made with numpy, then torch.from_numpy): the model's weights are float32",
)(lambda got, v, d: isinstance(got, torch.Tensor) and got.dtype == torch.float64)
