"""Recalled facts are withheld on the first failures (grader/engine/attempts.py).

A recall key point's first failure shows what was checked, what came back and where to re-read;
its expected value, hint and the course's line come after three different wrong answers, or with
``--reveal``. Other key points show everything at once. The real checks are run on mutants for
the cases the issue named: R's run-record items, and the classroom feedback of A9 and A10.
"""

from __future__ import annotations

import hashlib

from grader.classroom.notebooks import class_feedback
from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import attempts, cache, runner
from grader.engine.results import ExerciseResult, KeyPointResult
from grader.reports.terminal import feedback

MUTANTS = ROOT / "solutions" / "mutants"


def _result(got: str) -> dict[str, ExerciseResult]:
    return {
        "R": ExerciseResult(
            "R",
            "graded",
            [
                KeyPointResult(
                    "run_record_items",
                    "failed",
                    "the run record lacks some items",
                    expected="['run id', 'commit', 'config', 'data version', 'seed', 'environment', 'metrics']",
                    got=got,
                    hint="missing: ['data version']; seven items",
                ),
                KeyPointResult("ridge_point", "not_implemented", "R: ridge_point"),
            ],
        ),
        "A3": ExerciseResult(
            "A3",
            "graded",
            [
                KeyPointResult(
                    "matches_numpy", "failed", "broadcast_shape((2,), (3, 1))", expected="(3, 2)", got="(2, 3)"
                )
            ],
        ),
    }


def _shown(tmp_path, got: str, *, reveal: bool = False) -> dict[str, str]:
    tries = attempts.Attempts(tmp_path / "exercises", cache_dir=tmp_path / "cache")
    results = _result(got)
    tries.record(results)
    gated = attempts.gate(
        results, attempts.Attempts(tmp_path / "exercises", cache_dir=tmp_path / "cache"), reveal=reveal
    )
    return {f"{ex}.{k.key_point}": feedback(catalog.get(ex), k) for ex, r in gated.items() for k in r.key_points}


def test_recall_fact_withheld_until_three_different_answers(tmp_path):
    first = _shown(tmp_path, "['seed']")["R.run_record_items"]
    assert "data version" not in first and "expected:" not in first and "course:" not in first
    assert "got:      ['seed']" in first and "re-read:  part 6" in first and "第六篇" in first
    assert "checks:   the items of the minimal run record" in first and "1; 2 to go" in first
    again = _shown(tmp_path, "['seed']")["R.run_record_items"]  # the same answer is not another attempt
    assert "1; 2 to go" in again and "data version" not in again
    assert "2; 1 to go" in _shown(tmp_path, "['seed', 'commit']")["R.run_record_items"]
    third = _shown(tmp_path, "['seed', 'git']")["R.run_record_items"]
    assert "expected: ['run id'," in third and "hint:     missing: ['data version']" in third
    assert "course:   the minimal run record has seven items" in third


def test_reveal_shows_the_fact_at_once(tmp_path):
    text = _shown(tmp_path, "['seed']", reveal=True)["R.run_record_items"]
    assert "expected: ['run id'," in text and "course:" in text and "withheld" not in text


def test_other_key_points_teach_at_the_first_failure(tmp_path):
    shown = _shown(tmp_path, "['seed']")
    a3 = shown["A3.matches_numpy"]
    # the computed value shows at once; A3's course line states its forbidden rule ("align from
    # the right"), so it waits for the reveal as everything a failure prints does (red team, item 8)
    assert "expected: (3, 2)" in a3 and "course:" not in a3
    assert shown["R.ridge_point"].startswith("not implemented yet")  # nothing answered: nothing gated


def test_attempts_live_beside_the_results_cache(tmp_path):
    target = ROOT / "exercises"
    tries = attempts.Attempts(target)
    results_file = cache.ResultCache(target).path
    assert tries.path.parent == results_file.parent and tries.path.name == results_file.stem + ".attempts.json"
    assert tries.path.stem.split(".")[0] == hashlib.sha256(str(target.resolve()).encode()).hexdigest()[:16]


def test_cached_results_without_a_lesson_still_load():
    old = {"exercise": "A3", "status": "graded", "key_points": [{"key_point": "matches_numpy", "status": "passed"}]}
    assert ExerciseResult.from_dict(old).key_points[0].lesson == ""


def _graded(ex_id: str, mutant: str, key_point: str) -> KeyPointResult:
    ex = catalog.get(ex_id)
    res = runner.grade_exercise(ex, MUTANTS / ex.module / f"{mutant}.py", key_points=[key_point])
    (kp,) = res.key_points
    assert kp.status == "failed", kp
    return kp


def test_run_record_items_first_miss_names_no_item():
    """The issue: a first miss of run_record_items printed all seven items."""
    kp = _graded("R", "record_without_data_version", "run_record_items")  # names six items, not the data's
    text = feedback(catalog.get("R"), attempts.shown(catalog.get("R"), kp, count=1))
    assert "data version" not in text and "data_version" not in text and "seven" not in text, text
    revealed = feedback(catalog.get("R"), attempts.shown(catalog.get("R"), kp, count=attempts.REVEAL_AFTER))
    assert "data version" in revealed, revealed


def _in_class(ex: catalog.Exercise, kp: KeyPointResult) -> str:
    """The test cell's feedback, after the classroom's gate (nothing counted: every fact withheld)."""
    (shown,) = attempts.gate({ex.id: ExerciseResult(ex.id, "graded", [kp])}, None)[ex.id].key_points
    return class_feedback(ex, shown)


def test_classroom_feedback_keeps_a9_bytes_and_a10_ratio_out():
    """The issue: classroom feedback printed A9's KV-cache bytes and A10's ratio."""
    a9 = _in_class(catalog.get("A9"), _graded("A9", "forgets_k_and_v", "fits_decision"))
    kv = 128 * 4096 * 131_072  # the course's 128 requests x 4K on Llama-3-8B, bf16
    assert f"{kv:,}" not in a9 and "68.7" not in a9 and "KV cache" not in a9.split("checks:")[0], a9
    a10 = _in_class(catalog.get("A10"), _graded("A10", "percent", "idle_fraction"))
    assert "0.7" not in a10.replace("70.0", "") and "1 - device" not in a10, a10


def test_first_miss_names_no_rule_in_its_hint_or_mistake():
    """The review: B2's hint and named mistake listed the record's items on a first miss. B2's
    record_diff is a recall key point: the hint, the named mistake and the expected value wait for
    the third different miss (the failing input, B2's records, is shown)."""
    ex_id, mutant, key_point, rule = "B2", "compares_metrics", "record_diff", ("always differ", "included")
    ex = catalog.get(ex_id)
    kp = _graded(ex_id, mutant, key_point)
    assert kp.misconception and any(r in kp.hint for r in rule), kp  # the raw result has them
    first = attempts.shown(ex, kp, count=1)
    text = feedback(ex, first) + class_feedback(ex, first)
    assert not first.misconception and not any(r in text for r in rule), text
    revealed = feedback(ex, attempts.shown(ex, kp, count=attempts.REVEAL_AFTER))
    assert any(r in revealed for r in rule), revealed


def test_a_measured_key_point_teaches_at_once_without_another_s_fact():
    """The learner: a measured key point (A7's estimate against the bytes autograd saves) showed
    "the expected value is the fact this key point asks you to recall". It is no recall key point:
    its first miss shows the measurement, the hint, the named mistake and the lesson, and none of
    them states the rule of thumb C4's follow-up withholds (6 d + 3 d_ff) or the course's numbers."""
    ex = catalog.get("A7")
    kp = _graded("A7", "sixteen_d_per_token", "tracks_measurement")
    first = attempts.shown(ex, kp, count=1)
    text = feedback(ex, first)
    # its course line states A7's forbidden items ("B x T", "keeps only"): it waits for the reveal (item 8)
    assert first.expected and "measured" in text and first.misconception and "course:" not in text, text
    assert "course:" in feedback(ex, attempts.shown(ex, kp, count=attempts.REVEAL_AFTER))
    assert "recall" not in text and not any(r in text for r in ("6 d +", "3 d_ff", "d_ff-sized", "16.5", "1.0 GiB")), (
        text
    )


def test_an_attempt_is_a_change_of_the_code_not_of_its_answer(tmp_path):
    """Red team: an answer returning random values, graded three times, revealed every withheld fact."""
    from grader.engine.results import ExerciseResult, KeyPointResult

    target = tmp_path / "answers"
    target.mkdir()
    tries = attempts.Attempts(target, cache_dir=tmp_path / "cache")
    module = target / "r_recall.py"

    def grade(body, got):
        module.write_text(f"import random\n\ndef ignore_index():\n    {body}\n\ndef other():\n    return 1\n")
        tries.record(
            {
                "R": ExerciseResult(
                    "R",
                    "graded",
                    [
                        KeyPointResult(
                            "ignore_index",
                            "failed",
                            "ignore_index() drops those labels",
                            expected="-100",
                            got=got,
                            example="failing input: ignore_index()",
                        )
                    ],
                )
            }
        )
        return tries.count("R", "ignore_index")

    assert [grade("return random.random()", g) for g in ("0.1", "0.7", "0.3")] == [1, 1, 1]  # noise: one attempt
    assert grade("return random.random()  # a comment", "0.9") == 1  # layout and comments do not count
    module_other = grade("return random.random()", "0.2")
    assert module_other == 1
    assert grade("return 1001", "1001") == 2 and grade("return 1002", "1002") == 3


def test_one_wrong_answer_counts_once_in_either_language(monkeypatch):
    """The distinct wrong answers are counted on what was said, not on the language it was shown in."""
    from grader import i18n

    monkeypatch.setattr(i18n, "translations", lambda lang: {"{what} must be an int": "{what} 必须是 int"})
    said = {}
    for lang in ("zh", "en"):
        monkeypatch.setattr(i18n, "_lang", lang)
        said[lang] = KeyPointResult("k", "failed", i18n._("{what} must be an int", what="f(2)"), got="'2'")
    assert said["zh"].message != said["en"].message
    assert attempts._answer_digest(said["zh"]) == attempts._answer_digest(said["en"])
