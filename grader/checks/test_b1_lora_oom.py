"""B1 — LoRA OOM at max_length 8192 x batch 4. Ground truth: saved-for-backward bytes measured in
real Llama models with and without transformers' gradient checkpointing
(``grader/checks/truth/activations.py``, as A7), budgets drawn to overflow a known block, and the
check's own arithmetic of the stated plans for drawn budgets (part 4, activations; part 3,
accumulation; part 7 §五.B question 1)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_str, expect_equal, fail
from grader.checks.truth.activations import DTYPES, measured_bytes
from grader.given.tiny_models import LLAMA3_8B

GB, GIB = 10**9, 2**30
STATE_8B_LORA, GPU80 = int(16.7 * GB), 80 * GB
ACT_8B_1x4096 = int(16.5 * GIB)  # part 4's Llama-3-8B estimate at B=1, T=4096
DTYPE_BYTES = {name: dtype.itemsize for name, dtype in DTYPES.items()}


@st.composite
def _budgets(draw):
    """(state, activations, gpu, the block that overflows): drawn to be a case of that block, so
    the expected answer is how the case was built, not a recomputation of the rule."""
    gpu = draw(strategies.gpu_bytes)
    block = draw(st.sampled_from(["parameters_and_state", "activations", "fits"]))
    if block == "parameters_and_state":  # the state alone is larger than the GPU
        return gpu + draw(st.integers(1, 10**12)), draw(strategies.activation_sizes), gpu, block
    state = draw(st.integers(0, gpu))
    if block == "activations":  # the state fits, the activations on top do not
        return state, gpu - state + draw(st.integers(1, 10**12)), gpu, block
    return state, draw(st.integers(0, gpu - state)), gpu, block


@given(_budgets())
def test_overflowing_block(learner, case):
    course = [(STATE_8B_LORA, ACT_8B_1x4096 * 8, GPU80, "activations"),  # B1: B=4, T=8192 (~132 GiB)
              (STATE_8B_LORA, 0, GPU80, "fits")]
    for s, a, g, block in course + [case]:
        got = as_str(learner.diagnose(s, a, g), f"diagnose({s}, {a}, {g})")
        expect_equal(got, block, f"diagnose(state={s}, activations={a}, gpu={g})",
                     hint="16.7 GB of LoRA state fits 80 GB; the activations at B=4, T=8192 (~132 GiB) do not")


@settings(max_examples=2)
@given(strategies.llama_like_configs(max_layers=2), strategies.activation_batches, strategies.activation_seq_lens,
       st.integers(2, 4), strategies.activation_dtypes)
def test_activations_at_new_shape(learner, config, batch, seq, k, dtype):
    base = measured_bytes(config, batch, seq, dtype)
    for b, t in ((k * batch, seq), (batch, k * seq)):
        want = measured_bytes(config, b, t, dtype)
        what = f"scale_activations({base}, {batch}, {seq}, {b}, {t})"
        got = as_int(learner.scale_activations(base, batch, seq, b, t), what)
        if abs(got - want) > max(2, want // 1000):
            fail(what + ": the bytes measured at the new B, T in a real model", want, got,
                 hint="activations are proportional to B x T")
    got = as_int(learner.scale_activations(ACT_8B_1x4096, 1, 4096, 4, 8192), f"scale_activations({ACT_8B_1x4096}, 1, 4096, 4, 8192): the course's Llama-3-8B")
    if abs(got / GIB - 132) > 0.5:
        fail("scale_activations for the course's Llama-3-8B, from B=1, T=4096 to B=4, T=8192", "~132 GiB",
             f"{got / GIB:.1f} GiB", "16.5 GiB at B=1, T=4096 -> 8x at B=4, T=8192")


@settings(max_examples=2)
@given(strategies.llama_like_configs(max_layers=2), strategies.activation_batches, strategies.activation_seq_lens,
       strategies.activation_dtypes)
def test_activations_after_fix(learner, config, batch, seq, dtype):
    want = measured_bytes(config, batch, seq, dtype, checkpointing=True)
    what = f"activations_after_fix(config, {batch}, {seq}, {DTYPE_BYTES[dtype]})"
    expect_equal(as_int(learner.activations_after_fix(config, batch, seq, DTYPE_BYTES[dtype]), what), want,
                 what + ": the bytes a real model saves for backward with the fix made", hint="only each layer's input is kept: B x T x d x layers x bytes")
    got = as_int(learner.activations_after_fix(LLAMA3_8B, 4, 8192, 2), "activations_after_fix(Llama-3-8B, 4, 8192, 2)")
    expect_equal(got, 4 * 8192 * 4096 * 32 * 2, "activations_after_fix for the course's Llama-3-8B at B=4, T=8192",
                 hint="1.0 GiB at B=1, T=4096, times 8")
    expect_equal(learner.diagnose(STATE_8B_LORA, got, GPU80), "fits",
                 "diagnose(the course's 16.7 GB state, your activations after the fix at B=4, T=8192, 80 GB)",
                 hint="with checkpointing, 16.7 GB + 8 GiB fits the 80 GB GPU")


@given(st.integers(1, 512), st.integers(1, 512), strategies.state_sizes, st.integers(1, 10**7), st.integers(1, 64),
       strategies.gpu_bytes)
def test_plans_that_fit(learner, batch, max_micro, state, per_token, b, gpu):
    for bt, mm in ((4, 1), (batch, max_micro)):
        what = f"batch_plan({bt}, {mm})"
        got = learner.batch_plan(bt, mm)
        if type(got) not in (tuple, list) or len(got) != 2:
            fail(f"{what} must return (micro_batch, steps)", "(int, int)", got)
        micro, steps = as_int(got[0], what + "[0]"), as_int(got[1], what + "[1]")
        want = max(d for d in range(1, min(bt, mm) + 1) if bt % d == 0)
        expect_equal((micro, steps), (want, bt // want), what,
                     hint="micro-batch x accumulation steps must equal the original batch (the effective batch)")
    # the drawn budget, and one whose state alone is over the GPU (no length fits), whatever the draw
    for st_, g in ((state, gpu), (gpu + 1 + state % gpu, gpu)):
        what = f"fit_limit({st_}, {per_token}, {b}, {g})"
        expect_equal(as_int(learner.fit_limit(st_, per_token, b, g), what), max(0, (g - st_) // (per_token * b)), what,
                     hint="the state stays; the activations shrink with T: (gpu - state) // (bytes per token x batch)")
