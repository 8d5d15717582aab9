"""B2 — is a 0.5-point difference real. Ground truth: numpy's mean and sample std of drawn seed
scores, the ci95 half-width with the exact normal quantile (grader.checks.truth.experiments), and
the settings each drawn pair of seven-item records was built to differ in (part 2, statistics;
part 6, run records; part 7 §五.B question 2).

The verdict itself is the course's decision rule (real only with at least two seeds a side,
mean +- std bands apart and a gap beyond ci95): no library decides "real", so the check composes
that rule from the independent statistics above rather than from the reference answer's code."""

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_str, expect_equal, fail
from grader.checks.truth.experiments import bands_overlap, ci95_half_width, mean_std


def expected_verdict(a, b, n) -> str | None:
    """The course's rule on numpy's mean/std and the exact ci95; None when the draw sits on a
    rounding edge (1.96 vs the exact quantile, band touching)."""
    if len(a) < 2 or len(b) < 2:
        return "need_more_seeds"
    (ma, _), (mb, _) = mean_std(a), mean_std(b)
    ci = ci95_half_width((ma + mb) / 2, n)
    if abs(abs(ma - mb) - ci) <= 1e-3 * ci + 1e-12:
        return None
    return "real" if not bands_overlap(a, b) and abs(ma - mb) > ci else "not_shown"


@settings(max_examples=30)
@given(strategies.record_pairs())
def test_record_diff(learner, pair):
    a, b, want = pair  # want is drawn with the records: the failing example shows a and b only
    example = f"a = {a!r}\nb = {b!r}"
    got = learner.diff_records(a, b)
    if type(got) is not list:
        fail("diff_records must return a sorted list of keys", "a sorted list of str", got, example=example)
    expect_equal(got, want, "diff_records(a, b) on two drawn run records", example=example,
                 hint="compare commit, config, data_version, seed and environment first; run_id and metrics "
                      "always differ")


COURSE = [([0.612, 0.598, 0.605], [0.617, 0.603, 0.61], 80),  # 0.5 points, overlapping bands: not shown
          ([0.61], [0.615], 80),
          ([0.600, 0.601, 0.599], [0.650, 0.651, 0.649], 80),  # tight bands, but 80 questions: +-10.9 > 5 points  # one run each: a single number is no conclusion
          ([0.60, 0.601, 0.599], [0.75, 0.751, 0.749], 1000)]  # tight bands, 15 points on 1000 questions


@given(strategies.seed_scores, strategies.seed_scores, st.integers(10, 100_000), st.floats(0, 0.5))
def test_multi_seed_stats(learner, a, b, n, shift):
    b = [min(1.0, x + shift) for x in b]
    for sa, sb, nn in COURSE + [(a, b, n), (a[:1], b, n)]:
        want = expected_verdict(sa, sb, nn)
        if want is None:
            continue
        got = as_str(learner.verdict(sa, sb, nn), f"verdict({sa}, {sb}, {nn})")
        expect_equal(got, want, f"verdict(scores_a={sa}, scores_b={sb}, n_questions={nn})",
                     hint="at least 2 seeds each; 'real' only if the mean +- std bands do not overlap and the "
                          "means differ by more than 1.96 sqrt(p(1-p)/n)")
