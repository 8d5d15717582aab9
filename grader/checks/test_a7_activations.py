"""A7 — activation memory. Ground truth: the bytes autograd saves for backward inside the decoder
layers of real ``LlamaForCausalLM`` models (SDPA attention, training mode), measured with
``torch.autograd.graph.saved_tensors_hooks`` (parameters excluded, each storage counted once),
with and without transformers' own gradient checkpointing (part 4, activations).

The contract's paths: B and T scaled separately, vocab grown (the blocks do not change), fp32 vs
bf16 bytes, checkpointing on (exact) and off (0.5x-1.25x), MLP widths 2..4 x d drawn and 8 x d
(Gemma) fixed, the course's Llama-3-8B numbers."""

from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, expect_equal, fail
from grader.checks.truth.activations import DTYPES, measured_bytes
from grader.given.tiny_models import LLAMA3_8B
from grader.i18n import _

BYTES = {name: dtype.itemsize for name, dtype in DTYPES.items()}  # bytes per element, as the estimate is told
GIB = 2**30
LOW, HIGH = 0.5, 1.25  # the estimate may leave things out (the course's rule does), not invent them


def estimate(learner, plain, batch, seq_len, checkpointing, nbytes) -> int:
    what = (
        f"activation_bytes(config, batch={batch}, seq_len={seq_len}, checkpointing={checkpointing}, "
        f"bytes_per_elem={nbytes})"
    )
    got = as_int(learner.activation_bytes(plain, batch, seq_len, checkpointing, nbytes), what)
    if got <= 0:
        fail(_("{what} must be a positive number of bytes", what=what), "> 0", got)
    return got


def _layers(plain):
    return (
        f"d={plain['hidden_size']}, d_ff={plain['intermediate_size']}, "
        f"layers={plain['num_hidden_layers']}, vocab={plain['vocab_size']}"
    )


RATIO_TOL = 1.2  # a ratio of estimates may differ from the measured ratio by up to this factor either way


def _ratio_check(what, want, got, hint):
    """The learner's ratio of two estimates against the measured ratio, within RATIO_TOL."""
    if not 1 / RATIO_TOL <= got / want <= RATIO_TOL:
        fail(
            _(
                "{what}: the estimate must change as the measured activations do (within {RATIO_TOL}x)",
                what=what,
                RATIO_TOL=RATIO_TOL,
            ),
            _(
                "x{want:.3f} (measured; x{value:.3f} .. x{value2:.3f} accepted)",
                want=want,
                value=want / RATIO_TOL,
                value2=want * RATIO_TOL,
            ),
            f"x{got:.3f}",
            hint,
        )


@settings(max_examples=4)
@given(
    strategies.llama_like_configs(max_layers=2),
    strategies.activation_batches,
    strategies.activation_seq_lens,
    st.integers(2, 3),
    strategies.activation_dtypes,
)
def test_growth_with_inputs(learner, plain, batch, seq_len, k, dtype):
    nbytes = BYTES[dtype]
    base = measured_bytes(plain, batch, seq_len, dtype)
    est = estimate(learner, plain, batch, seq_len, False, nbytes)
    for b, t, axis in [
        (k * batch, seq_len, f"batch {batch} -> {k * batch}"),
        (batch, k * seq_len, f"seq_len {seq_len} -> {k * seq_len}"),
    ]:
        want = measured_bytes(plain, b, t, dtype) / base
        got = estimate(learner, plain, b, t, False, nbytes) / est
        _ratio_check(
            f"{axis} ({dtype}, {_layers(plain)})",
            want,
            got,
            _("compare how the saved tensors grow with the batch and the sequence, not with the parameters"),
        )
    # more parameters in the embedding and head, same blocks: the measured activations do not move
    bigger = dict(plain, vocab_size=plain["vocab_size"] * 50)
    if measured_bytes(bigger, batch, seq_len, dtype) != base:  # the ground truth's own premise: a check error
        raise RuntimeError(_("A7 check: the measured block activations changed with vocab_size"))
    expect_equal(
        estimate(learner, bigger, batch, seq_len, False, nbytes),
        est,
        _(
            "activation_bytes with vocab_size {vocab_size} -> {vocab_size2} "
            "(B={batch}, T={seq_len}, {dtype}; the measured bytes do not change)",
            vocab_size=plain["vocab_size"],
            vocab_size2=bigger["vocab_size"],
            batch=batch,
            seq_len=seq_len,
            dtype=dtype,
        ),
        hint=_("the embedding and the head grew, the blocks did not"),
    )
    # fp32 against bf16: measured, RMSNorm's fp32 upcast included (an estimate may model it or not)
    want = measured_bytes(plain, batch, seq_len, "float32") / measured_bytes(plain, batch, seq_len, "bfloat16")
    got = estimate(learner, plain, batch, seq_len, False, 4) / estimate(learner, plain, batch, seq_len, False, 2)
    _ratio_check(
        _(
            "bytes_per_elem 2 -> 4 (float32 vs bfloat16 measured, B={batch}, T={seq_len}, {layers})",
            batch=batch,
            seq_len=seq_len,
            layers=_layers(plain),
        ),
        want,
        got,
        _("part 2: bytes are elements x bytes per element"),
    )
    # the course's question 7 (Llama-3-8B, B=2, T=8192 against B=1, T=4096): B and T both doubled,
    # against the growth measured when both are doubled on the drawn model
    want = measured_bytes(plain, 2 * batch, 2 * seq_len, dtype) / base
    one = estimate(learner, LLAMA3_8B, 1, 4096, False, 2)
    _ratio_check(
        _(
            "Llama-3-8B activations at B=2, T=8192 against B=1, T=4096 (measured: B and T doubled on {_layers})",
            _layers=_layers(plain),
        ),
        want,
        estimate(learner, LLAMA3_8B, 2, 8192, False, 2) / one,
        "part 7, self-test 7",
    )


@settings(max_examples=5)
@given(
    strategies.llama_like_configs(),
    strategies.activation_batches,
    strategies.activation_seq_lens,
    strategies.activation_dtypes,
)
def test_checkpointed_bytes(learner, plain, batch, seq_len, dtype):
    nbytes = BYTES[dtype]
    want = measured_bytes(plain, batch, seq_len, dtype, checkpointing=True)
    got = estimate(learner, plain, batch, seq_len, True, nbytes)
    expect_equal(
        got,
        want,
        _(
            "activation_bytes(..., checkpointing=True) for B={batch}, T={seq_len}, "
            "{dtype}, {_layers} vs the bytes measured under gradient checkpointing",
            batch=batch,
            seq_len=seq_len,
            dtype=dtype,
            _layers=_layers(plain),
        ),
        hint=_("checkpointing keeps each layer's input only: B x T x d x layers x bytes"),
    )
    course = estimate(learner, LLAMA3_8B, 1, 4096, True, 2)
    expect_equal(
        course,
        1 * 4096 * 4096 * 32 * 2,
        _("Llama-3-8B, B=1, T=4096, bf16, with checkpointing (bytes)"),
        hint=_("part 4: 32 MiB of layer input per layer x 32 layers = 1.0 GiB"),
    )


# Gemma-7B's MLP is 8 x d wide (d 3072, d_ff 24576): the d_ff share must follow intermediate_size.
WIDE_MLP = {
    "vocab_size": 64,
    "hidden_size": 32,
    "intermediate_size": 256,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 8,
    "tie_word_embeddings": False,
    "max_position_embeddings": 256,
}


@settings(max_examples=6)
@given(
    strategies.llama_like_configs(),
    strategies.activation_batches,
    strategies.activation_seq_lens,
    strategies.activation_dtypes,
)
def test_tracks_measurement(learner, plain, batch, seq_len, dtype):
    nbytes = BYTES[dtype]
    for config in (plain, WIDE_MLP):  # d_ff 2..4 x d as drawn, and 8 x d
        want = measured_bytes(config, batch, seq_len, dtype)
        got = estimate(learner, config, batch, seq_len, False, nbytes)
        if not LOW <= got / want <= HIGH:
            fail(
                _(
                    "activation_bytes(...) for B={batch}, T={seq_len}, {dtype}, {_layers} vs "
                    "the measured saved-for-backward bytes",
                    batch=batch,
                    seq_len=seq_len,
                    dtype=dtype,
                    _layers=_layers(config),
                ),
                _(
                    "{value:,.0f} .. {value2:,.0f} B (measured {want:,} B)",
                    value=LOW * want,
                    value2=HIGH * want,
                    want=want,
                ),
                f"{got:,} B",
                _(
                    "count what each layer saves for backward per token: the inputs of its "
                    "norms, attention and MLP matmuls and what their activations keep; the "
                    "MLP's share follows intermediate_size"
                ),
            )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import mistake  # noqa: E402

_CKPT = (
    (
        {
            "vocab_size": 64,
            "hidden_size": 32,
            "intermediate_size": 96,
            "num_hidden_layers": 3,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 8,
            "tie_word_embeddings": False,
            "max_position_embeddings": 64,
        },
        2,
        8,
        True,
        4,
    ),
    {},
)  # 3 layers, 4 bytes: every slip below differs


def _ckpt_slip(slip):
    def holds(got, config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
        d, d_ff, layers = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
        tokens = batch * seq_len
        right = tokens * d * layers * bytes_per_elem
        bad = slip(tokens, d, d_ff, layers, bytes_per_elem)
        return checkpointing is True and got == bad != right

    return holds


for _slip, _zh, _en in [
    (
        lambda n, d, f, L, b: n * L * (6 * d + 3 * f) * b,
        "开了 checkpointing 还是按全部激活算：它只存每层的输入，其余在反向时重算",
        "counts every activation with checkpointing on: it keeps only each layer's input, the rest is recomputed in "
        "backward",
    ),
    (
        lambda n, d, f, L, b: n * L * (6 * d + 3 * f) * b // 2,
        "把 checkpointing 当成激活减半：它只存每层的输入",
        "takes checkpointing for halving the activations: it keeps each layer's input only",
    ),
    (
        lambda n, d, f, L, b: n * d * b,
        "只算了一层的输入：每一层都存自己的输入，要乘层数",
        "counts one layer's input: every layer keeps its own input, times the layers",
    ),
    (
        lambda n, d, f, L, b: n * d * L * 2,
        "忽略了 bytes_per_elem，总按 bf16 的 2 字节算",
        "ignores bytes_per_elem and always counts bf16's 2 bytes",
    ),
]:
    mistake("checkpointed_bytes", function="activation_bytes", probe=_CKPT, zh=_zh, en=_en)(_ckpt_slip(_slip))
