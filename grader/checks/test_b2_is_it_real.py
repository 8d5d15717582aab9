"""B2 — is a 0.5-point difference real. Ground truth: numpy's mean and sample std of drawn seed
scores, the ci95 half-width with the exact normal quantile (grader.checks.truth.experiments), and
the settings each drawn pair of seven-item records was built to differ in (part 2, statistics;
part 6, run records; part 7 §五.B question 2).

The verdict itself is the course's decision rule (real only with at least two seeds a side,
the seeds' bands apart and a gap beyond ci95): no library decides "real", so the check composes
that rule from the independent statistics above rather than from the reference answer's code.

The bands: the course does not say how wide it shades them, only that part 2's example is apart
(「5 个 seed 的均值差 0.30、约 1.7 个标准差（seed 间标准差 0.179），两条阴影带后期不重叠才算差别」): under
mean +- 1 std those bands overlap (0.179 + 0.179 > 0.30), under mean +- 1 standard error (C6's
"sem", std / sqrt(5) = 0.080 a side) they are apart. The stub names that convention (BANDS), and
the course's example is one of the cases asked (COURSE_SEEDS).

The contract's paths, and where each is exercised (score_verdict unless said):
- fewer than 2 seeds on either side -> need_more_seeds (a[:1] of the draw, the course's one-run case);
- bands (mean +- 1 standard error, of the sample std: ddof=1) overlap -> not_shown; bands apart but the means
  within ci95 -> not_shown; bands apart and beyond ci95 -> real (the course cases and the draws);
- part 2's example (COURSE_SEEDS): real, where +-1 std bands say not_shown;
- sample vs population std: a drawn pair whose bands overlap with ddof=1 but not with ddof=0
  (gap between the two band widths, ci95 far below it), so numpy's default np.std (ddof=0) is
  caught; draws on a rounding edge (ci95 or band touching within 1e-6) are skipped, so float32
  arithmetic is accepted;
- record_diff: every settings item alone and together, run_id and metrics always differing, the
  equal dicts in another key order (records read back from JSON written by other code).
"""

from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_str, expect_equal, fail
from grader.checks.truth.experiments import (
    SEED_BANDS as BANDS,
    band,
    bands_overlap,
    ci95_half_width,
    course_seed_example,
    seed_verdict,
)
from grader.i18n import _


@settings(max_examples=30)
@given(strategies.record_pairs())
def test_record_diff(learner, pair):
    a, b, want = pair
    # The same dicts in another key order are the same settings (records are read back from JSON
    # files written by different code): the equal ones come in reversed key order.
    b = {k: (dict(reversed(list(v.items()))) if isinstance(v, dict) and v == a[k] else v) for k, v in b.items()}
    example = f"a = {a!r}\nb = {b!r}"  # want is drawn with the records: the failing example shows a and b only
    got = learner.diff_records(a, b)
    if type(got) is not list:
        fail(_("diff_records must return a sorted list of keys"), _("a sorted list of str"), got, example=example)
    expect_equal(
        got,
        want,
        _("diff_records(a, b) on two drawn run records"),
        example=example,
        hint=_("compare commit, config, data_version, seed and environment first; run_id and metrics always differ"),
    )


# Part 2's seeds (0.30 apart, std 0.179) as accuracies (the bands depend on the gap and the spread only);
# 1000 questions: ci95 +-3.1 points, not what decides. The course reads these bands as apart: real.
COURSE_SEEDS = (*course_seed_example(center=0.65), 1000)
COURSE = [
    ([0.612, 0.598, 0.605], [0.617, 0.603, 0.61], 80),  # 0.5 points, overlapping bands: not shown
    ([0.61], [0.615], 80),  # one run each: a single number is no conclusion
    ([0.600, 0.601, 0.599], [0.650, 0.651, 0.649], 80),  # tight bands, but 80 questions: +-10.9 > 5 points
    ([0.60, 0.601, 0.599], [0.75, 0.751, 0.749], 1000),  # tight bands, 15 points on 1000 questions
    COURSE_SEEDS,
]


def ddof_pair(base: float, d: float, k: int) -> tuple[list[float], list[float], int]:
    """Two configs of k seeds whose bands (BANDS) overlap with the sample std (ddof=1) and do not
    with the population std (ddof=0); 1,000,000 questions put ci95 (~0.001) far below the gap."""
    import numpy as np

    a = base + d * np.linspace(-1.0, 1.0, k)
    pop, sample = (band(a, **BANDS, ddof=ddof)[1] - float(a.mean()) for ddof in (0, 1))
    b = a + pop + sample  # the gap: between the two widths of a pair of bands, 2 x pop and 2 x sample
    return [round(float(x), 12) for x in a], [round(float(x), 12) for x in b], 1_000_000


@given(
    strategies.seed_scores,
    strategies.seed_scores,
    st.integers(10, 100_000),
    st.floats(0, 0.5),
    st.floats(0.3, 0.6),
    st.floats(0.01, 0.05),
    st.sampled_from([2, 3, 5]),
)
def test_score_verdict(learner, a, b, n, shift, base, d, k):
    b = [min(1.0, x + shift) for x in b]
    for sa, sb, nn in COURSE + [(a, b, n), (a[:1], b, n), ddof_pair(base, d, k)]:
        want = seed_verdict(sa, sb, nn)
        if want is None:
            continue
        got = as_str(learner.verdict(sa, sb, nn), f"verdict({sa}, {sb}, {nn})")
        expect_equal(
            got,
            want,
            f"verdict(scores_a={sa}, scores_b={sb}, n_questions={nn})",
            hint=_(
                "at least 2 seeds each; 'real' only if the mean +- standard error bands "
                "do not overlap and the means differ by more than 1.96 sqrt(p(1-p)/n)"
            ),
        )


# ------------------------------------------------------------------ named mistakes (issue 29)
import numpy as np  # noqa: E402

from grader.checks.support.mistakes import Raised, mistake  # noqa: E402


def _rule(a, b, n, *, ddof: int = 1, spread: str = BANDS["spread"], bands: bool = True, ci: bool = True) -> str:
    """The course's rule, with one of its parts changed or left out (two seeds a side given)."""
    ma, mb = float(np.mean(a)), float(np.mean(b))
    apart = not bands_overlap(a, b, BANDS["k"], spread, ddof)
    beyond = abs(ma - mb) > ci95_half_width((ma + mb) / 2, n)
    return "real" if (apart or not bands) and (beyond or not ci) else "not_shown"


def _two_a_side(a, b):
    return len(a) >= 2 and len(b) >= 2


for _kw, _probe, _zh, _en in [
    (
        {"ddof": 0},
        ddof_pair(0.5, 0.02, 3),
        "用了总体标准差（ddof=0，np.std 的默认）：seed 间的标准差用样本标准差（ddof=1）",
        "uses the population std (ddof=0, np.std's default): the seeds' spread is the sample std (ddof=1)",
    ),
    (
        {"spread": "std"},
        COURSE_SEEDS,
        "带宽用了 ±1 个样本标准差：题目约定的带是 均值 ± 1 个标准误（标准差 / √n），"
        "第二篇的例子（差 0.30、标准差 0.179）按它才不重叠",
        "draws each band as mean +- 1 sample std: the stub's bands are mean +- 1 standard error (std / sqrt(n)), "
        "under which part 2's example (0.30 apart, std 0.179) is apart",
    ),
    (
        {"ci": False},
        COURSE[2],
        "没看 ci95：seed 的带分开了，但题目数少时均值差仍在置信区间里",
        "ignores ci95: the seeds' bands are apart, but with few questions the means' gap is still within the "
        "confidence interval",
    ),
    (
        {"bands": False},
        ([0.60, 0.65, 0.70], [0.62, 0.67, 0.72], 100_000),
        "没看 seed 的带：只比了 ci95，seed 之间的波动会把差别淹掉",
        "ignores the seeds' bands: compares with ci95 only, and seed-to-seed noise can swamp the difference",
    ),
]:
    mistake("score_verdict", function="verdict", probe=(_probe, {}), zh=_zh, en=_en)(
        lambda got, a, b, n, _kw=_kw: (
            _two_a_side(a, b) and seed_verdict(a, b, n) is not None and got == _rule(a, b, n, **_kw) != _rule(a, b, n)
        )
    )

_ONE_RUN = (COURSE[1], {})
mistake(
    "score_verdict",
    function="verdict",
    probe=_ONE_RUN,
    zh="一个 seed 也下了结论：单次运行没有标准差带，先要至少两个 seed",
    en="draws a conclusion from a single run: one seed has no std band, at least two seeds a side come first",
)(lambda got, a, b, n: not _two_a_side(a, b) and got in ("real", "not_shown"))
mistake(
    "score_verdict",
    function="verdict",
    probe=_ONE_RUN,
    zh="对一个 seed 求了标准差（statistics.stdev 报错）：少于两个 seed 时先返回 need_more_seeds",
    en="takes the std of one seed (statistics.stdev raises): with fewer than two seeds, answer need_more_seeds first",
)(lambda got, a, b, n: not _two_a_side(a, b) and isinstance(got, Raised) and got.type_name == "StatisticsError")
