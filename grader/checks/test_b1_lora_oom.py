"""B1 — LoRA OOM at max_length 8192 x batch 4. Ground truth: saved-for-backward bytes measured in
real Llama models with and without transformers' gradient checkpointing
(``grader/checks/truth/activations.py``, as A7), budgets drawn to overflow a known block, and the
check's own arithmetic of the stated plans for drawn budgets (part 4, activations; part 3,
accumulation; part 7 §五.B question 1)."""

from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_str, expect_equal, fail
from grader.checks.truth.activations import DTYPES, measured_bytes
from grader.given.tiny_models import LLAMA3_8B
from grader.i18n import _

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
    course = [
        (STATE_8B_LORA, ACT_8B_1x4096 * 8, GPU80, "activations"),  # B1: B=4, T=8192 (~132 GiB)
        (STATE_8B_LORA, 0, GPU80, "fits"),
    ]
    for s, a, g, block in course + [case]:
        got = as_str(learner.diagnose(s, a, g), f"diagnose({s}, {a}, {g})")
        expect_equal(
            got,
            block,
            f"diagnose(state={s}, activations={a}, gpu={g})",
            hint=_("16.7 GB of LoRA state fits 80 GB; the activations at B=4, T=8192 (~132 GiB) do not"),
        )


@settings(max_examples=2)
@given(
    strategies.llama_like_configs(max_layers=2),
    strategies.activation_batches,
    strategies.activation_seq_lens,
    st.integers(2, 4),
    strategies.activation_dtypes,
)
def test_activations_at_new_shape(learner, config, batch, seq, k, dtype):
    base = measured_bytes(config, batch, seq, dtype)
    for b, t in ((k * batch, seq), (batch, k * seq)):
        want = measured_bytes(config, b, t, dtype)
        what = f"scale_activations({base}, {batch}, {seq}, {b}, {t})"
        got = as_int(learner.scale_activations(base, batch, seq, b, t), what)
        if abs(got - want) > max(2, want // 1000):
            fail(
                _("{what}: the bytes measured at the new B, T in a real model", what=what),
                want,
                got,
                hint=_("activations are proportional to B x T"),
            )
    got = as_int(
        learner.scale_activations(ACT_8B_1x4096, 1, 4096, 4, 8192),
        _("scale_activations({ACT_8B_1x4096}, 1, 4096, 4, 8192): the course's Llama-3-8B", ACT_8B_1x4096=ACT_8B_1x4096),
    )
    if abs(got / GIB - 132) > 0.5:
        fail(
            _("scale_activations for the course's Llama-3-8B, from B=1, T=4096 to B=4, T=8192"),
            "~132 GiB",
            f"{got / GIB:.1f} GiB",
            _("16.5 GiB at B=1, T=4096 -> 8x at B=4, T=8192"),
        )


@settings(max_examples=2)
@given(
    strategies.llama_like_configs(max_layers=2),
    strategies.activation_batches,
    strategies.activation_seq_lens,
    strategies.activation_dtypes,
)
def test_activations_after_fix(learner, config, batch, seq, dtype):
    want = measured_bytes(config, batch, seq, dtype, checkpointing=True)
    what = f"activations_after_fix(config, {batch}, {seq}, {DTYPE_BYTES[dtype]})"
    expect_equal(
        as_int(learner.activations_after_fix(config, batch, seq, DTYPE_BYTES[dtype]), what),
        want,
        _("{what}: the bytes a real model saves for backward with the fix made", what=what),
        hint=_("only each layer's input is kept: B x T x d x layers x bytes"),
    )
    got = as_int(learner.activations_after_fix(LLAMA3_8B, 4, 8192, 2), "activations_after_fix(Llama-3-8B, 4, 8192, 2)")
    expect_equal(
        got,
        4 * 8192 * 4096 * 32 * 2,
        _("activations_after_fix for the course's Llama-3-8B at B=4, T=8192"),
        hint=_("1.0 GiB at B=1, T=4096, times 8"),
    )
    expect_equal(
        learner.diagnose(STATE_8B_LORA, got, GPU80),
        "fits",
        _("diagnose(the course's 16.7 GB state, your activations after the fix at B=4, T=8192, 80 GB)"),
        hint=_("with checkpointing, 16.7 GB + 8 GiB fits the 80 GB GPU"),
    )


@given(
    st.integers(1, 512),
    st.integers(1, 512),
    strategies.state_sizes,
    st.integers(1, 10**7),
    st.integers(1, 64),
    strategies.gpu_bytes,
)
def test_plans_that_fit(learner, batch, max_micro, state, per_token, b, gpu):
    for bt, mm in ((4, 1), (batch, max_micro)):
        what = f"batch_plan({bt}, {mm})"
        got = learner.batch_plan(bt, mm)
        if type(got) not in (tuple, list) or len(got) != 2:
            fail(_("{what} must return (micro_batch, steps)", what=what), _("(int, int)"), got)
        micro, steps = as_int(got[0], what + "[0]"), as_int(got[1], what + "[1]")
        want = max(d for d in range(1, min(bt, mm) + 1) if bt % d == 0)
        expect_equal(
            (micro, steps),
            (want, bt // want),
            what,
            hint=_("micro-batch x accumulation steps must equal the original batch (the effective batch)"),
        )
    # the drawn budget, and one whose state alone is over the GPU (no length fits), whatever the draw
    for st_, g in ((state, gpu), (gpu + 1 + state % gpu, gpu)):
        what = f"fit_limit({st_}, {per_token}, {b}, {g})"
        expect_equal(
            as_int(learner.fit_limit(st_, per_token, b, g), what),
            max(0, (g - st_) // (per_token * b)),
            what,
            hint=_("the state stays; the activations shrink with T: (gpu - state) // (bytes per token x batch)"),
        )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import close, mistake  # noqa: E402

_FITS_ALONE = ((60 * 10**9, 30 * 10**9, 80 * 10**9), {})  # each fits alone, together not; the state the larger
mistake(
    "overflowing_block",
    function="diagnose",
    probe=_FITS_ALONE,
    zh="把超出归给了参数与状态，但状态本身放得下 GPU（”加了 LoRA 还 OOM 是 LoRA 没生效”是误区）",
    en='blames the parameters and state, though the state alone fits the GPU ("LoRA and still OOM: LoRA did not '
    'take effect" is a misconception)',
)(lambda got, s, a, g: got == "parameters_and_state" and s <= g)
mistake(
    "overflowing_block",
    function="diagnose",
    probe=_FITS_ALONE,
    zh="只拿激活和 GPU 比了：状态和激活共用一张卡，要加在一起比",
    en="compares the activations alone with the GPU: the state and the activations share it",
)(lambda got, s, a, g: s <= g and a <= g < s + a and got == "fits")

_RESHAPE = ((10**9 + 7, 1, 4096, 4, 8192), {})  # both B and T change, by different factors
for _wrong, _zh, _en in [
    (
        lambda m, mb, mt, b, t: m * b / mb,
        "只按 batch 缩放了激活，漏了序列长度：激活与 B × T 成正比",
        "scales the activations with the batch only: they are proportional to B x T",
    ),
    (
        lambda m, mb, mt, b, t: m * t / mt,
        "只按序列长度缩放了激活，漏了 batch：激活与 B × T 成正比",
        "scales the activations with the sequence length only: they are proportional to B x T",
    ),
    (
        lambda m, mb, mt, b, t: m * b * t * t / (mb * mt * mt),
        "按 T² 缩放了激活，好像存了 [T, T] 的注意力分数：SDPA 不存它们，激活与 B × T 成正比",
        "scales with T^2 as if the [T, T] attention scores were stored: SDPA does not store them, activations are "
        "proportional to B x T",
    ),
]:
    mistake("activations_at_new_shape", function="scale_activations", probe=_RESHAPE, zh=_zh, en=_en)(
        lambda got, m, mb, mt, b, t, _w=_wrong: (
            close(got, _w(m, mb, mt, b, t), 1e-3) and not close(_w(m, mb, mt, b, t), m * b * t / (mb * mt), 1e-3)
        )
    )

_PLAN = ((6, 4), {})  # 4 does not divide 6
mistake(
    "plans_that_fit",
    function="batch_plan",
    probe=_PLAN,
    zh="只把 batch 降了，没有梯度累积：有效 batch 变小了，micro-batch × 累积步数要等于原 batch",
    en="just lowers the batch, without accumulation: the effective batch shrinks; micro-batch x steps must equal "
    "the "
    "batch",
)(lambda got, bt, mm: mm < bt and type(got) in (tuple, list) and len(got) == 2 and tuple(got) == (min(bt, mm), 1))
mistake(
    "plans_that_fit",
    function="batch_plan",
    probe=_PLAN,
    zh="取了放得下的最大 micro-batch，累积步数向下取整：micro-batch × 累积步数要等于原 batch",
    en="takes the largest micro-batch that fits and floors the steps: micro-batch x steps must equal the batch",
)(
    lambda got, bt, mm: (
        mm < bt
        and bt % mm != 0
        and type(got) in (tuple, list)
        and len(got) == 2
        and tuple(got) == (mm, bt // mm)
        and mm * (bt // mm) != bt
    )
)
mistake(
    "plans_that_fit",
    function="fit_limit",
    probe=((90 * 10**9, 10**6, 2, 80 * 10**9), {}),
    zh="状态本身放不下时返回了负数：没有剩余显存就是一个 token 都放不下，长度为 0",
    en="returns a negative length when the state alone does not fit: no memory left means length 0",
)(lambda got, s, per, b, g: s > g and isinstance(got, int) and got < 0)
