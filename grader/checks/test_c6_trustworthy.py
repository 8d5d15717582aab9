"""C6 — trustworthy conclusions. Ground truth: numpy's mean / sample std of drawn seed values, the
ci95 half-width with the exact normal quantile (grader.checks.truth.experiments), a pandas inner merge of
drawn eval tables, hashlib's SHA-256 of a data file the check writes, the installed
distributions' versions (truth/experiments.check_environment, as P5), and repeated calls of the
learner's seeded experiment (part 2, statistics; part 6, experiment management; part 7 §五.C
question 6).

The contract's paths (issue 17), and where each is exercised:
- seeded_reruns: the same seed twice in one process with another seed between; seed 0
  (``seed or ...`` treats it as none); once per grading, the same seeds again more than a second
  later (a clock-based seed differs) and in a freshly started interpreter (not forked: its own
  string-hash secret, so a seed derived from ``hash()`` differs, PYTHONHASHSEED);
- seeds: float32 statistics accepted (tolerance 1e-6 of the values' scale), ddof=0 rejected;
  bands_overlap off the touching edge;
- seeds: the band convention (k x std or k x standard error) drawn, the course's example (5 seeds 0.30
  apart, std 0.179) under +-1 standard error and +-1 std;
- every item of the run record against a git repository the check makes (its real HEAD: a
  placeholder commit fails) and the data file's SHA-256 (its path fails), and the data version
  changing with the data.
"""

import hashlib
import json
import time

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_number, expect_equal, fail
from grader.checks.truth.experiments import (
    SEVEN_ITEMS,
    SPREADS,
    bands_overlap,
    bands_touching,
    check_environment,
    ci95_half_width,
    close,
    course_seed_example,
    git_repo,
    mean_std,
)
from grader.checks.truth.meaning import by_meaning, record_item, run_facts
from grader.i18n import _


@given(
    strategies.seed_scores,
    strategies.seed_scores,
    st.floats(0, 0.5),
    st.sampled_from([1.0, 2.0, 1.96]),
    st.sampled_from(SPREADS),
)
def test_seeds(learner, a, b, shift, k, spread):
    b = [x + shift for x in b]
    for values in (a, b):
        got = learner.seed_summary(values)
        if type(got) not in (tuple, list) or len(got) != 2:
            fail(_("seed_summary({values}) must return (mean, std)", values=values), _("(float, float)"), got)
        want = mean_std(values)
        for g, w, name in zip(got, want, ("mean", "std (ddof=1)"), strict=True):
            # 1e-6 of the values' scale: a float32 mean/std (torch.tensor(values).std()) is right;
            # ddof=0 is off by >= 13% of the std
            if abs(as_number(g, f"seed_summary {name}") - w) > 1e-6 * max(map(abs, values)) + 1e-9:
                fail(f"seed_summary({values}) {name}", w, g, hint=_("the sample std divides by n - 1"))
    # The course's own example first (issue 23: it overlapped under a fixed mean +- 1 std): part 2's 5 seeds
    # 0.30 apart with a std of 0.179, whose bands the course reads as apart, are apart as +-1 standard error.
    ca, cb = course_seed_example()
    cases = [(ca, cb, 1.0, "sem"), (ca, cb, 1.0, "std"), (a, b, k, spread)]
    for xa, xb, kk, sp in cases:
        if bands_touching(xa, xb, kk, sp):
            continue
        expect_equal(
            learner.bands_overlap(xa, xb, kk, sp),
            bands_overlap(xa, xb, kk, sp),
            f"bands_overlap({xa}, {xb}, k={kk}, spread={sp!r})",
            hint=_(
                "each band is mean +- k x s (s: the sample std, or std / sqrt(n) for "
                "'sem'); overlapping bands show no difference"
            ),
        )


@given(st.floats(0.0, 1.0), st.integers(1, 1_000_000))
def test_ci95(learner, p, n):
    for pp, nn in ((0.55, 80), (p, n)):
        got = as_number(learner.ci95_half_width(pp, nn), f"ci95_half_width({pp}, {nn})")
        if not close(got, ci95_half_width(pp, nn)):
            fail(f"ci95_half_width({pp}, {nn})", ci95_half_width(pp, nn), got, hint="1.96 sqrt(p(1-p)/n)")
    if abs(learner.ci95_half_width(0.55, 80) - 0.109) > 0.001:
        fail(
            _("ci95_half_width(0.55, 80): the course's 80 questions"),
            0.109,
            learner.ci95_half_width(0.55, 80),
            _("+-10.9 points cannot tell 5 points apart"),
        )


@st.composite
def _tables(draw):
    ids = draw(st.lists(st.text("abcdefgh0123", min_size=1, max_size=4), min_size=1, max_size=30, unique=True))
    a = [(q, draw(st.booleans())) for q in ids if draw(st.booleans()) or q == ids[0]]
    b = [(q, draw(st.booleans())) for q in ids if draw(st.booleans()) or q == ids[0]]
    return a, b


@given(_tables())
def test_per_question_diff(learner, tables):
    a, b = tables
    m = pd.DataFrame(a, columns=["q", "a"]).merge(pd.DataFrame(b, columns=["q", "b"]), on="q")
    want = {"improved": sorted(m.query("~a and b")["q"]), "degraded": sorted(m.query("a and ~b")["q"])}
    got = learner.changed_questions(a, b)
    expect_equal(
        got,
        want,
        f"changed_questions({a}, {b})",
        hint=_("inner-merge on the question id, then list wrong->right and right->wrong"),
    )


def _record(learner, shared_tmp_path, content: str, seed: int):
    path = shared_tmp_path / f"data-{abs(hash(content)) % 10**8}.jsonl"
    path.write_text(content)
    path.chmod(0o644)
    repo, head = git_repo(shared_tmp_path, f"# run {seed}\n")
    config, metrics = {"lr": 3e-4, "batch_size": 8, "seed": seed}, {"accuracy": 0.61, "loss": 1.7}
    # keys matched by meaning: which items a record holds is what the learner recalls
    run = run_facts(
        {
            "config": config,
            "data_path": str(path),
            "seed": seed,
            "metrics": metrics,
            "repo_dir": repo,
            "id": f"run-{seed}-{len(content)}",
        },
        seed,
    )
    rec, names = by_meaning(learner.run_record(run), record_item, SEVEN_ITEMS, "run_record(run)")
    return rec, run, head, path, names


@given(st.integers(0, 10**6), st.text(min_size=1, max_size=200))
@settings(max_examples=10)
def test_run_record(learner, shared_tmp_path, seed, text):
    content = json.dumps({"text": text}) + "\n"
    rec, run, head, path, names = _record(learner, shared_tmp_path, content, seed)
    expect_equal(
        (rec["run_id"], rec["config"], rec["seed"], rec["metrics"]),
        (run["id"], run["config"], run["seed"], run["metrics"]),
        _("run id, config, seed and metrics as given"),
    )
    # issue 29: "unknown" passed as the commit, and the data file's path as its version: a commit is the
    # repository's real HEAD, a data version identifies the bytes
    if rec["commit"] != head:
        fail(
            _("run_record()['commit']: the code's revision"),
            head,
            rec["commit"],
            hint=_(
                "the full sha of HEAD of run['repo_dir'] (git -c safe.directory='*' -C "
                "repo rev-parse HEAD); a placeholder such as 'unknown' identifies no code"
            ),
        )
    if rec["data_version"] != hashlib.sha256(path.read_bytes()).hexdigest():
        fail(
            _("run_record()['data_version']: what identifies the data"),
            hashlib.sha256(path.read_bytes()).hexdigest(),
            rec["data_version"],
            hint=_("the SHA-256 of the file's bytes: a path names a file whose content can change under the same name"),
        )
    check_environment(rec["environment"], names["environment"])


@pytest.fixture
def later_and_elsewhere(learner_factory):
    """Once per key point: the learner's process itself again after a pause, and a freshly exec'd
    interpreter (not a fork of the zygote: its own str hash secret)."""
    state = {}

    def get():
        if not state:
            time.sleep(1.1)  # a seed taken from the clock, in seconds, now differs
            state["fresh"] = learner_factory(zygote=None)
        return state["fresh"]

    return get


@settings(max_examples=10)
@given(st.integers(0, 2**31 - 1), st.integers(1, 1000))
def test_seeded_reruns(learner, later_and_elsewhere, seed, delta):
    first = as_number(learner.seeded_experiment(seed), f"seeded_experiment({seed})")
    other = as_number(learner.seeded_experiment(seed + delta), f"seeded_experiment({seed + delta})")
    again = as_number(learner.seeded_experiment(seed), f"seeded_experiment({seed}) again")
    if first != again:
        fail(
            _("seeded_experiment({seed}) twice (with another seed's run in between)", seed=seed),
            first,
            again,
            hint=_("draw every random number from a generator seeded with `seed`, not from the global state"),
        )
    if first == other:
        fail(
            _("seeds {seed} and {value} must give different results", seed=seed, value=seed + delta),
            f"!= {first}",
            other,
        )
    zero = as_number(learner.seeded_experiment(0), "seeded_experiment(0)")
    if zero != as_number(learner.seeded_experiment(0), "seeded_experiment(0) again"):
        fail(
            _("{call} twice", call="seeded_experiment(0)"),
            zero,
            _("another number"),
            hint=_("0 is a seed like any other: `seed or time.time()` and `if not seed:` treat it as no seed"),
        )
    fresh = later_and_elsewhere()
    for s_, want in ((seed, first), (0, zero)):
        later = as_number(learner.seeded_experiment(s_), _("seeded_experiment({s_}) a second later", s_=s_))
        if later != want:
            fail(
                _("seeded_experiment({s_}) now and more than a second later", s_=s_),
                want,
                later,
                hint=_("nothing from the clock: the seed alone must decide every random number"),
            )
        elsewhere = as_number(fresh.seeded_experiment(s_), _("seeded_experiment({s_}) in a new Python process", s_=s_))
        if elsewhere != want:
            fail(
                _("seeded_experiment({s_}) in this process and in a newly started one", s_=s_),
                want,
                elsewhere,
                hint=_(
                    "a seed derived from hash() of a string (or id(), or the pid) changes "
                    "with every interpreter (PYTHONHASHSEED); derive it from the seed itself "
                    "(part 6)"
                ),
            )


@settings(max_examples=10)
@given(st.text(min_size=1, max_size=200), st.text(min_size=1, max_size=5))
def test_changed_data(learner, shared_tmp_path, text, extra):
    content = json.dumps({"text": text}) + "\n"
    rec, _found, _lines, path, _names = _record(learner, shared_tmp_path, content, 0)
    expect_equal(
        rec["data_version"],
        hashlib.sha256(path.read_bytes()).hexdigest(),
        _("the record's item for the data file"),
        hint="hashlib.sha256(open(path, 'rb').read())",
    )
    changed, *_rest = _record(learner, shared_tmp_path, content + json.dumps({"text": extra}) + "\n", 0)
    if changed["data_version"] == rec["data_version"]:
        fail(_("the record of the data file once it changed"), _("a different hash"), changed["data_version"])


# ------------------------------------------------------------------ named mistakes (issue 29)
import math  # noqa: E402
import statistics  # noqa: E402

from grader.checks.support import mistakes as _mistakes  # noqa: E402
from grader.checks.support.mistakes import mistake  # noqa: E402

_SEEDS = (([0.61, 0.58, 0.66, 0.6],), {})  # 4 seeds: ddof 0 and 1 differ by 15%
for _wrong, _zh, _en in [
    (
        statistics.pstdev,
        "用了总体标准差（ddof=0，np.std 的默认）：seed 间的标准差用样本标准差，除以 n - 1",
        "uses the population std (ddof=0, np.std's default): the seeds' std is the sample std, divided by n - 1",
    ),
    (
        statistics.variance,
        "返回的是方差，不是标准差（少了开方）",
        "returns the variance, not the std (the square root left out)",
    ),
]:
    mistake("seeds", function="seed_summary", probe=_SEEDS, zh=_zh, en=_en)(
        lambda got, values, _w=_wrong: (
            len(values) > 1
            and type(got) in (tuple, list)
            and len(got) == 2
            and _mistakes.close(got[1], _w(values))
            and not _mistakes.close(_w(values), statistics.stdev(values))
        )
    )

mistake(
    "seeds",
    function="bands_overlap",
    probe=((*course_seed_example(), 1.0, "sem"), {}),
    zh="不管 k 和 spread，带宽总是 1 个标准差：带是 均值 ± k × s，s 是样本标准差或标准误 std / sqrt(n)",
    en="draws every band as mean +- 1 std whatever k and spread say: a band is mean +- k x s, s the sample std or "
    "the "
    "standard error std / sqrt(n)",
)(
    lambda got, a, b, k, spread: (
        (k, spread) != (1.0, "std") and got == bands_overlap(a, b, 1.0, "std") != bands_overlap(a, b, k, spread)
    )
)

for _wrong, _zh, _en in [
    (
        lambda p, n: 1.645 * math.sqrt(p * (1 - p) / n),
        "用了 90% 区间的 z 值 1.645：95% 区间的 z 值是 1.96",
        "uses the 90% interval's z of 1.645: the 95% interval's is 1.96",
    ),
    (
        lambda p, n: 1.96 * p * (1 - p) / n,
        "少了开方：半宽是 z × sqrt(p(1-p)/n)",
        "leaves out the square root: the half-width is z x sqrt(p(1-p)/n)",
    ),
    (
        lambda p, n: math.sqrt(p * (1 - p) / n),
        "返回的是标准误，没有乘 z 值",
        "returns the standard error, without multiplying by z",
    ),
]:
    mistake("ci95", function="ci95_half_width", probe=((0.55, 80), {}), zh=_zh, en=_en)(
        lambda got, p, n, _w=_wrong: (
            0 < p < 1 and _mistakes.close(got, _w(p, n)) and not _mistakes.close(_w(p, n), ci95_half_width(p, n))
        )
    )
