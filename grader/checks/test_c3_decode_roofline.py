"""C3 — decode roofline. Ground truth: the matmul FLOPs torch's FlopCounterMode counts in a real
one-token decode step of a tiny bf16 Llama and the bytes of its real weights; the roofline
(time = max(FLOPs / peak, bytes / bandwidth)) computed by the check for drawn hardware and sizes
(part 6, roofline and decode floor; part 7 §五.C question 3)."""

import math

from hypothesis import assume, given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_number, as_str, fail
from grader.checks.support.strategies import llama_configs
from grader.checks.truth.decode import real_decode_step
from grader.i18n import _

H100_PEAK, H100_BW = 989e12, 3.35e12
LLAMA3_8B_PARAMS = 8.03e9
TIE_MARGIN = 1e-6  # relative distance from the ridge below which a drawn case counts as a tie


def _close(got: float, want: float, what: str, hint: str = "", rel: float = 1e-6) -> None:
    if not math.isclose(got, want, rel_tol=rel, abs_tol=1e-30):
        fail(what, want, got, hint)


def _pair(value, what):
    if type(value) not in (tuple, list) or len(value) != 2:
        fail(_("{what} must be a (flops, bytes) pair", what=what), _("tuple of two numbers"), value)
    return as_number(value[0], _("{what}[0] (FLOPs)", what=what)), as_number(
        value[1], _("{what}[1] (bytes)", what=what)
    )


def _roofline(learner, flops, nbytes, peak, bw):
    what = f"roofline({flops:g}, {nbytes:g}, {peak:g}, {bw:g})"
    got = learner.roofline(flops, nbytes, peak, bw)
    if type(got) is not dict or set(got) != {"intensity", "time_s", "bound"}:
        fail(_("{what} must be a dict with keys intensity, time_s, bound", what=what), _("that dict"), got)
    return {
        "intensity": as_number(got["intensity"], what + "['intensity']"),
        "time_s": as_number(got["time_s"], what + "['time_s']"),
        "bound": as_str(got["bound"], what + "['bound']"),
    }, what


@settings(max_examples=4)
@given(llama_configs(max_layers=2), st.integers(1, 8))
def test_decode_step_cost(learner, config, batch):
    n, nbytes, flops = real_decode_step(config, batch)
    what = f"decode_cost({n}, batch={batch}, bytes_per_param=2)"
    got_f, got_b = _pair(learner.decode_cost(n, batch, 2), what)
    _close(
        got_f,
        flops,
        _("{what}: FLOPs torch's FlopCounterMode counts in the matmuls of a real decode step", what=what),
        hint=_("every weight: one multiply-add (2 FLOPs) per token, batch tokens per step"),
    )
    _close(
        got_b,
        nbytes,
        _("{what}: bytes of the real bf16 weights", what=what),
        hint=_("the weights are read once and shared by the whole batch"),
    )
    res, what = _roofline(learner, flops, nbytes, H100_PEAK, H100_BW)  # ground truth in: blame roofline alone
    _close(
        res["intensity"],
        batch,
        _("{what}: the intensity of a bf16 decode step of batch {batch}", what=what, batch=batch),
        hint=_("2 FLOPs x batch per weight / 2 bytes per weight"),
    )


@given(strategies.peak_flops, strategies.bandwidths, st.floats(1e6, 1e15), st.floats(1e6, 1e12))
def test_ridge(learner, peak, bw, flops, nbytes):
    # the contract defines no tie: a drawn step whose intensity is within TIE_MARGIN of the ridge
    # (equal in float64 but not in exact arithmetic, or nearly) is not drawn
    assume(abs((flops / nbytes) / (peak / bw) - 1) > TIE_MARGIN)
    _close(
        as_number(learner.ridge_point(H100_PEAK, H100_BW), "ridge_point(H100)"),
        H100_PEAK / H100_BW,
        "ridge_point(989e12, 3.35e12) in FLOP/byte",
    )
    _close(
        as_number(learner.ridge_point(peak, bw), f"ridge_point({peak:g}, {bw:g})"),
        peak / bw,
        f"ridge_point({peak:g}, {bw:g})",
        hint="peak FLOP/s / bandwidth bytes/s",
    )
    # the course's decode floor (batch 1) and batch 128 on an H100, then drawn steps
    cases = [
        (2 * LLAMA3_8B_PARAMS, 2 * LLAMA3_8B_PARAMS, H100_PEAK, H100_BW),
        (2 * LLAMA3_8B_PARAMS * 128, 2 * LLAMA3_8B_PARAMS, H100_PEAK, H100_BW),
        (flops, nbytes, peak, bw),
    ]
    for f, m, p, b in cases:
        res, what = _roofline(learner, f, m, p, b)
        want_t = max(f / p, m / b)
        _close(
            res["time_s"],
            want_t,
            f"{what}['time_s']",
            hint=_("the step waits for the slower ceiling: max(FLOPs / peak, bytes / bandwidth)"),
        )
        bound = "memory" if f / m < p / b else "compute"
        if res["bound"] != bound:
            fail(
                f"{what}['bound']",
                bound,
                res["bound"],
                _("intensity {value:g} vs ridge {value2:g}", value=f / m, value2=p / b),
            )
    res, _meta = _roofline(learner, *cases[0])
    if abs(res["time_s"] * 1e3 - 4.8) > 0.05:
        fail(
            _("roofline time of the course's Llama-3-8B bf16 decode at batch 1 on an H100"),
            "4.8 ms",
            f"{res['time_s'] * 1e3:.3g} ms",
            "16.06 GB / 3.35 TB/s ~ 4.8 ms",
        )


@st.composite
def _quant_cases(draw):
    n = draw(st.integers(10**6, 10**11))
    before = draw(st.sampled_from([2, 4]))
    after = draw(st.sampled_from([0.5, 1]))
    tokens = draw(st.one_of(st.integers(1, 32), st.integers(2048, 65536)))  # decode or prefill/training
    return n, tokens, before, after, draw(strategies.peak_flops), draw(strategies.bandwidths)


@given(_quant_cases())
def test_quantization_speedup(learner, case):
    def truth(n, t, b0, b1, p, bw):
        return max(2 * n * t / p, n * b0 / bw) / max(2 * n * t / p, n * b1 / bw)

    course = [
        (int(LLAMA3_8B_PARAMS), 1, 2, 0.5, H100_PEAK, H100_BW, 4.0),  # decode: 4x
        (int(LLAMA3_8B_PARAMS), 4096, 2, 0.5, H100_PEAK, H100_BW, 1.0),
    ]  # prefill / training: 1x
    for *args, want in course + [(*case, truth(*case))]:
        what = "quantization_speedup({}, tokens={}, {} -> {} bytes/param, peak={:g}, bw={:g})".format(*args)
        _close(
            as_number(learner.quantization_speedup(*args), what),
            want,
            what,
            hint=_("memory-bound decode gets faster by the bytes ratio; compute-bound steps not at all"),
        )


MIXTRAL = (46_700_000_000, 12_900_000_000)  # Mixtral 8x7B: total and active parameters per token


@given(st.integers(10**8, 10**12), st.floats(0.01, 0.5), st.integers(0, 256), strategies.weight_bytes_per_param)
def test_moe_decode_cost(learner, total, frac, extra, bpp):
    # The stub's convention: a serving batch (16 sequences or more), tokens spread over the experts;
    # the batches drawn are also at least total / active, where that reading and the course's
    # 「全部专家权重都要读」 agree (issue 23: at batch 1 they do not).
    # Mixtral at the course's kind of serving batch first, then a drawn case.
    active = max(1, int(total * frac))
    for t, a, b, p in ((*MIXTRAL, 64, 2), (total, active, max(-(-total // active), 16) + extra, bpp)):
        what = f"moe_decode_cost(total={t}, active={a}, batch={b}, bytes_per_param={p})"
        got_f, got_b = _pair(learner.moe_decode_cost(t, a, b, p), what)
        _close(
            got_f, 2 * a * b, _("{what}: FLOPs", what=what), hint=_("each token computes with its active experts only")
        )
        _close(
            got_b,
            min(t, b * a) * p,
            _("{what}: bytes", what=what),
            hint=_(
                "a serving batch's tokens are routed to different experts: the step "
                "reads far more than one token's active weights, never more than all of "
                "them; FLOPs fall with MoE, the bytes do not"
            ),
        )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import close, mistake  # noqa: E402

_DECODE = ((10**9 + 7, 5, 2), {})  # batch > 1 and bytes/param != 1: MACs, per-token reads and GB differ
for _wrong, _zh, _en in [
    (
        lambda n, b, p: (1.0 * n * b, None),
        "把一次乘加算成了 1 FLOP：decode 每个权重每个 token 是 2 FLOPs（一次乘加）",
        "counts a multiply-add as one FLOP: a decode step does 2 FLOPs (one multiply-add) per weight per token",
    ),
    (
        lambda n, b, p: (2.0 * n, None),
        "FLOPs 里漏掉了 batch：batch 里的每个 token 都要和每个权重乘加一次",
        "leaves the batch out of the FLOPs: every token of the batch multiply-adds with every weight",
    ),
    (
        lambda n, b, p: (None, n * p * b),
        "每个 token 都把权重读一遍：一个 decode step 的权重只读一次，整个 batch 共用",
        "reads the weights once per token: a decode step reads them once, shared by the whole batch",
    ),
    (lambda n, b, p: (None, float(n)), "字节数漏乘了每参数的字节数", "leaves the bytes per parameter out of the bytes"),
]:

    @mistake("decode_step_cost", function="decode_cost", probe=_DECODE, zh=_zh, en=_en)
    def _decode(got, n, b, p, _w=_wrong):
        want, bad = (2.0 * n * b, float(n * p)), _w(n, b, p)
        i = 0 if bad[0] is not None else 1
        return type(got) in (tuple, list) and len(got) == 2 and close(got[i], bad[i]) and not close(bad[i], want[i])


mistake(
    "ridge",
    function="ridge_point",
    probe=((H100_PEAK, H100_BW), {}),
    zh="除反了：ridge 是峰值算力（FLOP/s）除以带宽（bytes/s）",
    en="divides the wrong way round: the ridge is peak FLOP/s over bandwidth bytes/s",
)(lambda got, p, b: p != b and close(got, b / p))
_MEMORY_BOUND = ((2 * LLAMA3_8B_PARAMS, 2 * LLAMA3_8B_PARAMS, H100_PEAK, H100_BW), {})  # the course's batch-1 decode
for _time, _zh, _en in [
    (
        lambda f, m, p, b: f / p + m / b,
        "把计算时间和访存时间加起来了：搬数据和计算是重叠的，step 取两者中较大的",
        "adds compute time and memory time: loads and math overlap, the step takes the larger of the two",
    ),
    (
        lambda f, m, p, b: f / p,
        "只算了计算时间（”decode 慢是 GPU 算不过来”）：memory-bound 的 step 等的是搬权重",
        'counts the compute time only ("decode is slow because the GPU cannot compute fast enough"): a memory-bound '
        "step waits for the weights to be read",
    ),
]:

    @mistake("ridge", function="roofline", probe=_MEMORY_BOUND, zh=_zh, en=_en)
    def _roof(got, f, m, p, b, _t=_time):
        bad = _t(f, m, p, b)
        return type(got) is dict and close(got.get("time_s"), bad) and not close(bad, max(f / p, m / b))


mistake(
    "ridge",
    function="roofline",
    probe=_MEMORY_BOUND,
    zh="memory / compute 判反了：强度低于 ridge 是 memory-bound",
    en="swaps memory and compute: an intensity below the ridge is memory-bound",
)(
    lambda got, f, m, p, b: (
        type(got) is dict and f / m != p / b and got.get("bound") == ("compute" if f / m < p / b else "memory")
    )
)

_PREFILL = ((int(LLAMA3_8B_PARAMS), 4096, 2, 0.5, H100_PEAK, H100_BW), {})
_ONE_TOKEN = ((int(LLAMA3_8B_PARAMS), 1, 2, 0.5, H100_PEAK, H100_BW), {})


def _speedup(n, t, b0, b1, p, bw):
    return max(2 * n * t / p, n * b0 / bw) / max(2 * n * t / p, n * b1 / bw)


mistake(
    "quantization_speedup",
    function="quantization_speedup",
    probe=_PREFILL,
    zh="任何 step 都按字节比加速了：compute-bound 的 step（prefill、训练）读的字节少了也不会更快",
    en="speeds every step up by the bytes ratio: a compute-bound step (prefill, training) is not faster for "
    "reading fewer bytes",
)(lambda got, n, t, b0, b1, p, bw: close(got, b0 / b1) and not close(b0 / b1, _speedup(n, t, b0, b1, p, bw)))
mistake(
    "quantization_speedup",
    function="quantization_speedup",
    probe=_ONE_TOKEN,
    zh="认为量化从不加速：memory-bound 的 decode 读的字节少了就更快",
    en="says quantization never speeds up: a memory-bound decode gets faster by reading fewer bytes",
)(lambda got, n, t, b0, b1, p, bw: close(got, 1.0) and not close(1.0, _speedup(n, t, b0, b1, p, bw)))
mistake(
    "quantization_speedup",
    function="quantization_speedup",
    probe=_ONE_TOKEN,
    zh="比值倒过来了：加速比是量化前的时间除以量化后的时间",
    en="inverts the ratio: the speedup is the time before over the time after",
)(lambda got, *a: close(got, 1 / _speedup(*a)) and not close(_speedup(*a), 1.0))

_MOE = ((*MIXTRAL, 64, 2), {})
mistake(
    "moe_decode_cost",
    function="moe_decode_cost",
    probe=_MOE,
    zh="MoE 的 FLOPs 按全部专家算了：每个 token 只和它激活的专家计算",
    en="counts an MoE step's FLOPs with every expert: each token computes with its active experts only",
)(lambda got, t, a, b, p: type(got) in (tuple, list) and len(got) == 2 and t != a and close(got[0], 2 * t * b))
mistake(
    "moe_decode_cost",
    function="moe_decode_cost",
    probe=_MOE,
    zh="只读了一个 token 的激活专家：一个 batch 的 token 被路由到不同专家，读的字节远多于此",
    en="reads only one token's active experts: a batch's tokens are routed to different experts, the step reads "
    "far more",
)(
    lambda got, t, a, b, p: (
        type(got) in (tuple, list)
        and len(got) == 2
        and b > 1
        and t != a
        and close(got[1], a * p)
        and not close(a * p, min(t, b * a) * p)
    )
)
