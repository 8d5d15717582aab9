"""Feedback that names the mistake by what the answer does (issue 29): declared properties
(grader/checks/support/mistakes.py), confirmed on a non-degenerate input; the failing-input block
short and free of Hypothesis's wording; one withholding rule per report; the naming's cost.

The measure: fresh wrong answers that are NOT registered mutants (tests/naming_answers/, each from
the course's misconception table or a public bug report, with the words its sentence must contain)
are graded for real: all caught, >= 60% named, none misnamed, each failing grade's naming <= 1 s CPU.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from grader.checks.support import mistakes
from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import misconceptions, runner
from grader.engine.results import ExerciseResult, KeyPointResult

ANSWERS = Path(__file__).parent / "naming_answers"
NAMED_SHARE, NAMING_CPU_S = 0.6, 1.0
NAMED_PROPERTY = "fresh_wrong_answer_named"  # each answer's outcome, summed by named_share_failure
CJK = re.compile(r"[\u4e00-\u9fff]")


def _declaring_checks() -> list[str]:
    """Checks that declare mistakes, directly or through a shared module (support/kv_mistakes.py ...):
    read from their imports, since an import the lint finds unused is gone from the text."""
    uses = re.compile(r"^from grader\.checks\.support\S* import [^\n]*", re.M)
    checks = (ROOT / "grader" / "checks").glob("test_*.py")
    return sorted(p.stem for p in checks if any("mistake" in line for line in uses.findall(p.read_text())))


@pytest.fixture(scope="module")
def declared():
    for name in _declaring_checks():
        importlib.import_module(f"grader.checks.{name}")
    return list(mistakes.DECLARED)


def _exercise_of_check(where: str) -> catalog.Exercise:
    return next(ex for ex in catalog.available() if ex.check_file.stem == where.rpartition(".")[2])


def test_every_property_is_paired_and_its_probe_tells_it_from_the_right_answer(declared):
    """Each property: zh + en, key points of its exercise, a function of the stub, and a probe
    on which the reference answer does NOT show it (else it would name a right answer there)."""
    assert len(declared) >= 25, len(declared)
    for m in declared:
        ex = _exercise_of_check(m.where)
        assert CJK.search(m.zh) and not CJK.search(m.en) and m.en, m
        assert set(m.key_points) <= {kp.id for kp in ex.key_points}, (m.where, m.key_points)
        assert m.probe is not None, m
        solution = importlib.import_module(f"solutions.{ex.module}")
        args, kwargs = m.probe
        try:
            right = getattr(solution, m.function)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the reference raising is an answer too
            right = mistakes.Raised(type(exc).__name__)
        assert not m.holds(right, *args, **kwargs), f"{m.where}: {m.en!r} holds for the reference on its probe"


# ------------------------------------------------------------------ never misname on a degenerate input
class _FakeLearner:
    """A learner whose last call failed on ``args``; ``answer`` is its function."""

    def __init__(self, function, answer, args):
        self.answer, self.calls = answer, 0
        self.last_call = {
            "request": {"op": "call", "name": function, "args": list(args), "kwargs": {}},
            "value": answer(*args),
            "seconds": 0.01,
        }

    def call(self, name, *args, **kwargs):
        self.calls += 1
        return self.answer(*args, **kwargs)


def _kv_truth(config, b, t, n):
    from grader.checks.test_a9_kv_cache import _kv_truth as truth

    return truth(config, b, t, n)


TWO_LAYERS = {
    "vocab_size": 16,
    "hidden_size": 8,
    "intermediate_size": 8,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 2,
    "head_dim": 4,
    "max_position_embeddings": 16,
}


def test_degenerate_input_is_replayed_before_a_mistake_is_named(declared):
    """On 2 layers "one layer" and "K only" give the same value (truth / 2); on 2 heads = 2 kv heads
    the query-heads mistake is right. The probe (3 layers, GQA, 4 bytes) decides, or nothing is named."""
    args = (TWO_LAYERS, 1, 1, 2)
    one_layer = lambda c, b, t, n: _kv_truth(c, b, t, n) // c["num_hidden_layers"]  # noqa: E731
    k_only = lambda c, b, t, n: _kv_truth(c, b, t, n) // 2  # noqa: E731
    assert one_layer(*args) == k_only(*args)  # the input is degenerate for these two
    for answer, words in [(one_layer, "one layer"), (k_only, "one of K and V")]:
        learner = _FakeLearner("kv_cache_bytes", answer, args)
        line, held = misconceptions.name_by_property("matches_dynamic_cache", learner)
        assert len(held) >= 2 and words in line and learner.calls == 1, (line, held)
    # right on the failing input's neighbours, wrong on the probe in a way no property describes
    odd = lambda c, b, t, n: k_only(c, b, t, n) if c["num_hidden_layers"] == 2 else 7  # noqa: E731
    line, held = misconceptions.name_by_property("matches_dynamic_cache", _FakeLearner("kv_cache_bytes", odd, args))
    assert len(held) >= 2 and line == "", line


def test_a6_state_of_one_parameter_names_nothing_on_its_own(declared):
    """n = 1 (a state of 1): every per-parameter factor is also the answer itself; only the probe names."""
    learner = _FakeLearner("full_finetune_bytes", lambda n: 12 * n if n > 1 else 12, (1,))
    line, _ = misconceptions.name_by_property("full_finetune_bytes", learner)
    assert "fp32 master copy" in line
    learner = _FakeLearner("full_finetune_bytes", lambda n: 12 if n == 1 else 16 * n + 1, (1,))
    assert misconceptions.name_by_property("full_finetune_bytes", learner)[0] == ""


# ------------------------------------------------------------------ the failing-input block
def test_decisive_keys_are_shown_first_and_none_values_never_cut(declared):
    config = {f"key_{i}": i for i in range(12)} | {"head_dim": None}
    text = misconceptions.describe_call(
        "a9_kv_cache",
        {"op": "call", "name": "kv_cache_bytes", "args": [config, 1, 2, 2], "kwargs": {}},
        key_point="matches_dynamic_cache",
    )
    assert "head_dim: None" in text and "(len=13)" in text and len(text) < 300, text


def test_hypothesis_wording_never_reaches_a_learner():
    notes = (
        "Falsifying example: test_generations(\n    learner=<Learner>,\n"
        "    tokenizer=Qwen2TokenizerFast(name_or_path='Qwen/Qwen2.5-0.5B', vocab_size=151643, "
        "model_max_length=32768, is_fast=True, padding_side='right',\n        added_tokens_decoder={\n"
        "            151643: AddedToken('<|endoftext|>'),\n        }\n    ),\n    gen=3,\n)"
    )
    for head in ("Falsifying example: test_generations(", "Failing test case: test_generations("):
        text = misconceptions.hypothesis_free(notes.replace("Falsifying example: test_generations(", head))
        assert text == "failing input: tokenizer=<Qwen2TokenizerFast>, gen=3", text
    assert misconceptions.hypothesis_free("the check's own words") == "the check's own words"


def test_a_value_withheld_in_one_key_point_is_withheld_in_the_whole_report():
    from grader.engine import attempts

    ex = next(
        e
        for e in catalog.available()
        if any(kp.recall for kp in e.key_points) and any(not kp.recall for kp in e.key_points)
    )
    recall = next(kp for kp in ex.key_points if kp.recall)
    other = next(kp for kp in ex.key_points if not kp.recall)
    res = ExerciseResult(
        ex.id,
        "graded",
        [
            KeyPointResult(recall.id, "failed", "what", expected="-100", got="0"),
            KeyPointResult(
                other.id,
                "failed",
                "labels at the EOS",
                expected="[-100, 5]",
                got="[7, 5]",
                hint="a label of -100 is ignored; not 1-100",
            ),
        ],
    )
    [a, b] = attempts.gate({ex.id: res}, None)[ex.id].key_points
    assert a.expected is None
    assert b.expected == f"[{attempts.withheld_mark()}, 5]", b.expected
    assert b.hint == f"a label of {attempts.withheld_mark()} is ignored; not 1-100", b.hint  # whole tokens only


# ------------------------------------------------------------------ the measure
def _answers() -> list[Path]:
    return sorted(p for p in ANSWERS.glob("*.py") if not p.name.startswith("_"))


def _meta(path: Path) -> dict:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple):
            names = [t.id for t in node.targets[0].elts]
            if names == ["EXERCISE", "CAUGHT_BY", "NAMES"]:
                return dict(zip(names, ast.literal_eval(node.value), strict=True))
    raise AssertionError(f"{path.name}: no EXERCISE, CAUGHT_BY, NAMES")


def _learner_file(path: Path, tmp: Path, ex) -> Path:
    """The reference with the answer's functions put over it (the learner's folder has no solutions/)."""
    own = "\n".join(line for line in path.read_text().splitlines() if not line.startswith("from solutions."))
    dest = tmp / path.stem / f"{ex.module}.py"
    dest.parent.mkdir()
    reference = (ROOT / "solutions" / f"{ex.module}.py").read_text()
    dest.write_text(reference + "\n\n" + own + "\n")
    for sibling in re.findall(r"^\s*from (\w+) import", reference, re.M):  # C5 imports P2's loop from next to it
        if (ROOT / "solutions" / f"{sibling}.py").is_file():
            (dest.parent / f"{sibling}.py").write_text((ROOT / "solutions" / f"{sibling}.py").read_text())
    return dest


def test_the_fresh_wrong_answers_are_many_and_none_is_a_registered_mutant():
    answers = _answers()
    assert len(answers) >= 20 and len({_meta(p)["EXERCISE"] for p in answers}) >= 4
    registered = {p.read_text() for p in (ROOT / "solutions" / "mutants").rglob("*.py")}
    assert not registered & {p.read_text() for p in answers}


def named_share_failure(named: list[bool]) -> str | None:
    """The share named over every fresh wrong answer (tests/conftest.py hands it each caught
    answer's outcome, from whichever xdist worker graded it): why it is missed, else None. Not
    judged on a selection that graded only some answers (make test ONLY=A3), nor when one failed."""
    if len(named) < len(_answers()) or sum(named) >= NAMED_SHARE * len(named):
        return None
    return f"naming: {sum(named)} named of {len(named)} fresh wrong answers caught, under {NAMED_SHARE:.0%}"


def test_the_share_named_is_judged_over_every_answer_only():
    n = len(_answers())
    assert named_share_failure([False] * n) and named_share_failure([True] * (n // 2) + [False] * (n - n // 2))
    assert named_share_failure([True] * n) is None
    assert named_share_failure([False] * (n - 1)) is None  # a selection, or an answer that failed


# One test per answer, bound to its exercise (xdist spreads them; make test ONLY=A3 runs A3's).
@pytest.mark.parametrize(
    "answer", [(catalog.get(_meta(p)["EXERCISE"]), p) for p in _answers()], ids=[p.stem for p in _answers()]
)
def test_a_fresh_wrong_answer_is_caught_never_misnamed_and_cheaply(answer, tmp_path, measure):
    ex, path = answer
    meta = _meta(path)
    res = runner.grade_exercise(ex, _learner_file(path, tmp_path, ex), key_points=meta["CAUGHT_BY"])
    failed = [kp for kp in res.key_points if kp.status in ("failed", "error")]
    assert failed, f"{path.stem} not caught: {[(kp.key_point, kp.status) for kp in res.key_points]}"
    names = {kp.misconception for kp in failed if kp.misconception}
    misnamed = names and (meta["NAMES"] is None or not all(meta["NAMES"] in n for n in names))
    assert not misnamed, f"{path.stem}: {names}"
    measure(NAMED_PROPERTY, bool(names))
    costly = [f"{kp.key_point}: {kp.naming_cpu_s} s" for kp in failed if kp.naming_cpu_s > NAMING_CPU_S]
    assert not costly, f"{path.stem}: {costly}"


def test_a_key_point_without_properties_still_replays_the_registered_wrong_answers(tmp_path):
    """X2 declares no property: its failed call is replayed against its mutants, as before, and
    the replayed processes' CPU is counted in the naming's cost."""
    ex = catalog.get("X2")
    mutant = ROOT / "solutions" / "mutants" / ex.module / "asserts_shapes.py"
    assert not mistakes.for_key_point("safe_loss")
    learner_file = _learner_file(mutant, tmp_path, ex)
    [kp] = runner.grade_exercise(ex, learner_file, key_points=["safe_loss"]).key_points
    assert kp.status in ("failed", "error") and "assert the shapes" in kp.misconception, kp
    assert kp.naming_cpu_s > 0, kp


def test_registered_wrong_answers_that_agree_on_every_input_tried_are_not_named(tmp_path):
    """squeezes_both and checks_numel_only return the same loss on the failing call (pred (N,),
    target (N, 1)) and nothing else was answered: naming one would be a coin toss, so none is named."""
    ex = catalog.get("X2")
    learner_file = _learner_file(ROOT / "solutions" / "mutants" / ex.module / "squeezes_both.py", tmp_path, ex)
    [kp] = runner.grade_exercise(ex, learner_file, key_points=["safe_loss"]).key_points
    assert kp.status == "failed" and kp.misconception == "", kp


def test_a_state_of_one_on_two_gpus_names_only_what_the_probe_confirms(declared):
    """per_gpu_bytes(1, 1, "FSDP", 2): sharding the activations, rounding the share down and leaving
    the activations out all give 1 (the truth is 2); on the probe they differ."""
    args = (1, 1, "FSDP", 2)
    ceil = lambda a, b: -(-a // b)  # noqa: E731
    answers = {
        "shards the activations too": lambda s, a, st, n: ceil(s + a, n),
        "rounds each GPU's share down": lambda s, a, st, n: s // n + a,
        "leaves out the activations": lambda s, a, st, n: ceil(s, n),
    }
    assert {f(*args) for f in answers.values()} == {1}
    for words, answer in answers.items():
        line, held = misconceptions.name_by_property(
            "per_gpu_with_activations", _FakeLearner("per_gpu_bytes", answer, args)
        )
        assert len(held) == 3 and words in line, (words, line)


def test_a_withheld_yes_or_no_does_not_blank_every_config():
    from grader.engine import attempts

    ex = next(
        e
        for e in catalog.available()
        if any(kp.recall for kp in e.key_points) and any(not kp.recall for kp in e.key_points)
    )
    recall = next(kp for kp in ex.key_points if kp.recall)
    other = next(kp for kp in ex.key_points if not kp.recall)
    res = ExerciseResult(
        ex.id,
        "graded",
        [
            KeyPointResult(recall.id, "failed", "fits?", expected="False", got="True"),
            KeyPointResult(
                other.id, "failed", "bytes", expected="32", got="16", example="config={tie_word_embeddings: False}"
            ),
        ],
    )
    [_, b] = attempts.gate({ex.id: res}, None)[ex.id].key_points
    assert b.example == "config={tie_word_embeddings: False}", b.example


def test_elements_and_k_only_agree_on_two_bytes_and_the_probe_tells_them_apart(declared):
    """C4's course call (Llama-3-8B, 2 bytes per element): forgetting bytes_per_element and caching
    K only both give half the truth; the probe (4 bytes) names the one the answer does."""
    from grader.checks.support import kv_mistakes
    from grader.given.tiny_models import LLAMA3_8B

    args = (LLAMA3_8B, 1, 1, 2)
    elements = lambda c, b, t, n: kv_mistakes.truth(c, b, t, n) // n  # noqa: E731
    k_only = lambda c, b, t, n: kv_mistakes.truth(c, b, t, n) // 2  # noqa: E731
    assert elements(*args) == k_only(*args)
    for answer, words in [(elements, "counts elements, not bytes"), (k_only, "one of K and V")]:
        line, held = misconceptions.name_by_property("kv_cache_gqa", _FakeLearner("kv_cache_bytes", answer, args))
        assert len(held) >= 2 and words in line, (words, line, held)


def test_a_verdict_two_slips_explain_on_every_probe_is_not_named(declared):
    """B2: comparing with ci95 alone gives "real" wherever the population std does (a verdict has
    three values): on the population std's probe both hold again, so neither is named."""
    from grader.checks import test_b2_is_it_real as b2

    ci_only = lambda a, b, n: b2._rule(a, b, n, bands=False)  # noqa: E731 - a learner function
    args = b2.ddof_pair(0.5, 0.02, 3)
    line, held = misconceptions.name_by_property("score_verdict", _FakeLearner("verdict", ci_only, args))
    assert len(held) == 2 and line == "", (line, held)


def test_the_mutant_replay_still_runs_for_a_key_point_s_other_functions(declared):
    """P2's learning_rates declares properties of lr_at only: a failure in the loop (drive: the
    scheduler stepped before the optimizer) is still replayed against the registered wrong answers."""
    assert not misconceptions.replay_wanted("learning_rates", "lr_at")
    assert misconceptions.replay_wanted("learning_rates", "drive")
    assert misconceptions.replay_wanted("safe_loss", "safe_mse")
