"""Hints that state the answer follow the recall rule (issue 23), and an ``--override`` probe uses
up none of the learner's attempts.

B3, B4, B5 and C5 printed hints that state the answer ("torchrun --nproc_per_node=N SCRIPT starts
N processes", "zero inference overhead", ...) at the first failure. Such a hint (a key point
marked ``hint_answers``, or a hint naming one of its exercise's ``forbidden`` items) is withheld
until three different wrong answers, or ``--reveal``, as a recall fact's is; the value computed
for this input (``expected``) stays shown: it is no recalled fact.
"""

from __future__ import annotations

import pytest

from grader import cli
from grader.course import catalog
from grader.engine import attempts, runner
from grader.engine.results import ExerciseResult, KeyPointResult
from grader.reports.terminal import feedback

B5_HINT = "torchrun --nproc_per_node=N SCRIPT starts N processes, one per GPU"


def _results(got: str, hint: str = B5_HINT, ex_id: str = "B5", kp_id: str = "launch_command"):
    return {
        ex_id: ExerciseResult(
            ex_id,
            "graded",
            [KeyPointResult(kp_id, "failed", "the launch command", expected="8 processes", got=got, hint=hint)],
        )
    }


def _shown(tmp_path, got: str, *, reveal: bool = False, **kw) -> str:
    tries = attempts.Attempts(tmp_path / "exercises", cache_dir=tmp_path / "cache")
    results = _results(got, **kw)
    tries.record(results)
    (ex_id,) = results
    (kp,) = attempts.gate(results, tries, reveal=reveal)[ex_id].key_points
    return feedback(catalog.get(ex_id), kp)


def test_the_issues_key_points_are_marked():
    marked = {(ex.id, kp.id) for ex in catalog.CATALOG for kp in ex.key_points if kp.hint_answers}
    for ex_id in ("B3", "B4", "B5", "C5"):  # every key point of theirs withholds: a recall fact or marked
        ex = catalog.get(ex_id)
        assert all(kp.recall or (ex.id, kp.id) in marked for kp in ex.key_points), ex_id


def test_a_hint_that_answers_waits_for_three_different_answers(tmp_path):
    first = _shown(tmp_path, "python train.py")
    assert "nproc_per_node" not in first and "8 processes" in first and "1; 2 to go" in first
    assert "The hint states the answer" in first
    _shown(tmp_path, "torchrun train.py")
    third = _shown(tmp_path, "accelerate train.py")
    assert "nproc_per_node=N" in third


def test_reveal_shows_the_hint_at_once(tmp_path):
    assert "nproc_per_node=N" in _shown(tmp_path, "python train.py", reveal=True)


def test_a_hint_naming_a_forbidden_item_is_withheld_unmarked(tmp_path):
    ex = catalog.get("A3")
    point = ex.key_points[0]
    assert not point.recall and not point.hint_answers and "from the right" in ex.forbidden
    text = _shown(tmp_path, "(2, 3)", hint="shapes align from the right", ex_id="A3", kp_id=point.id)
    assert "from the right" not in text.split("hint")[-1] and "The hint states the answer" in text


def test_a_plain_hint_is_shown_at_once(tmp_path):
    ex = catalog.get("A3")
    text = _shown(tmp_path, "(2, 3)", hint="compare the shapes you got", ex_id="A3", kp_id=ex.key_points[0].id)
    assert "compare the shapes you got" in text


def test_an_override_probe_uses_no_attempt(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "grade", lambda folder, **kw: _results("python train.py"))
    monkeypatch.setattr(
        attempts.Attempts,
        "__init__",
        lambda self, target, cache_dir=None, _init=attempts.Attempts.__init__: _init(
            self, target, cache_dir=tmp_path / "cache"
        ),
    )
    probe = tmp_path / "probe.py"
    probe.write_text("")
    args = ["grade", "--target", str(tmp_path), "--json", "", "--html", "", "--no-quiz", "B5"]
    assert cli.main([*args, "--override", f"B5={probe}"]) == 0
    assert attempts.Attempts(tmp_path).count("B5", "launch_command") == 0
    assert cli.main(args) == 0  # the learner's own file: counted
    assert attempts.Attempts(tmp_path).count("B5", "launch_command") == 1


@pytest.mark.parametrize("ex", catalog.CATALOG, ids=lambda ex: ex.id)
def test_the_withholding_matcher_finds_every_forbidden_item(ex):
    """The matcher the withholding uses is the stubs' (tests/test_stubs_ask.py): one place."""
    from tests.test_stubs_ask import _found

    assert all(_found(item, item) for item in ex.forbidden)
    assert ex.gives_away(" ".join(ex.forbidden)) == list(ex.forbidden)


def test_c2_missing_line_hint_waits_and_describes_the_trace():
    """A learner's finding: the first wrong answer printed the whole recipe, and "norms growing step
    after step" where the trace shows one jump, then flat."""
    from grader.checks.test_c2_loss_triage import trace_sign
    from grader.checks.truth.loop_trace import real_trace

    assert catalog.get("C2").key_point("missing_line").hint_answers
    trace = real_trace(3, "zero_grad")
    norms = trace["grad_norm"]
    assert norms[1] > 1.3 * norms[0] and max(norms[1:]) < 1.05 * norms[1]  # one jump, then flat
    sign = trace_sign("zero_grad", trace)
    assert "growing" not in sign and "jump" in sign and f"{norms[0]:.3g}" in sign
    for line in ("scheduler_step", "clip_grad_norm", "none"):  # each hint names its own line only
        assert "zero_grad" not in trace_sign(line, real_trace(3, line))
