"""One withholding rule for everything a failure prints (hint, course line, named mistake): before a
key point's reveal nothing it prints states an item of its exercise's ``forbidden`` list or a fact
of set R, and a revealed key point prints nothing a recall key point of the same report still
withholds (red team: A9's hint and course line gave the KV-cache shape away; R's einsum_pv's
course line gave einsum_qk's subscripts)."""

from __future__ import annotations

import re

import pytest

from grader import i18n
from grader.course import catalog
from grader.engine import attempts
from grader.engine.results import ExerciseResult, KeyPointResult
from grader.i18n import _
from grader.reports import terminal

POINTS = [(ex, point) for ex in catalog.CATALOG for point in ex.key_points]


@pytest.mark.parametrize("ex,point", POINTS, ids=[f"{ex.id}-{p.id}" for ex, p in POINTS])
def test_a_first_failure_prints_nothing_withheld(ex, point):
    # the worst case: a hint and a named mistake that say what the course line says
    kp = KeyPointResult(
        point.id, "failed", "checked", expected="12345", got="1", hint="", misconception=""
    )  # the course line alone
    s = attempts.shown(ex, kp, count=0)
    printed = [s.hint, s.lesson, s.misconception]
    assert not catalog.states_withheld(ex, *printed), (ex.id, point.id, catalog.states_withheld(ex, *printed))


def test_a9_shape_hint_and_course_line_wait_for_the_reveal():
    ex = catalog.get("A9")
    kp = KeyPointResult(
        "matches_dynamic_cache",
        "failed",
        "bytes",
        expected="4096",
        got="2048",
        hint="each layer caches K and V of shape [B, n_kv_heads, T, head_dim]",
    )
    first, revealed = attempts.shown(ex, kp, count=0), attempts.shown(ex, kp, count=3)
    assert "n_kv_heads" not in first.hint + first.lesson and first.expected == "4096"
    assert "n_kv_heads" in revealed.hint and revealed.lesson


def test_a_revealed_key_point_keeps_a_withheld_neighbours_fact(tmp_path):
    tries = attempts.Attempts(tmp_path / "exercises", cache_dir=tmp_path / "cache")

    def run(pv_got):
        return {
            "R": ExerciseResult(
                "R",
                "graded",
                [
                    KeyPointResult("einsum_qk", "failed", "einsum", expected="btd,bsd->bts", got="x"),
                    KeyPointResult("einsum_pv", "failed", "einsum", expected="bts,bsd->btd", got=pv_got),
                ],
            )
        }

    for wrong in ("a", "b", "c"):  # einsum_pv reaches its reveal, einsum_qk stays at one attempt
        tries.record(run(wrong))
    qk, pv = attempts.gate(run("c"), tries)["R"].key_points
    assert qk.expected is None and pv.expected == "bts,bsd->btd"
    assert "btd,bsd->bts" not in pv.lesson + pv.hint, pv


RECALL = [(ex, point) for ex in catalog.CATALOG for point in ex.key_points if point.recall and len(ex.key_points) > 1]


@pytest.mark.parametrize("ex,point", RECALL, ids=[f"{ex.id}-{p.id}" for ex, p in RECALL])
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_withheld_value_is_in_no_text_a_neighbour_shows(ex, point, lang):
    """Red team: A9's 131072 bytes a token, withheld, was in fits_on_gpu's title as ``gpu_bytes=131,072``."""
    before = i18n.current()
    i18n.use(lang)
    try:
        other = next(p for p in ex.key_points if p is not point)
        said = "fits_on_gpu(gpu_bytes=131,072, weight_bytes=1.31072e+05)"
        neighbour = KeyPointResult(
            other.id,
            "failed",
            _("{what} must return a bool", what=said),
            expected="[131072, 5]",
            got=_("{what} must return a bool", what="131_072"),
            hint=_("{what} must return a bool", what="131072 B"),
            example="failing input: gpu_bytes=131072",
            misconception=_("{what} must return a bool", what="131,072"),
        )
        recalled = KeyPointResult(point.id, "failed", "what", expected="131072", got="1")
        res = attempts.gate({ex.id: ExerciseResult(ex.id, "graded", [recalled, neighbour])}, None)[ex.id]
        shown = [terminal.feedback(ex, kp) for kp in res.key_points]
        shown += [i18n.show(getattr(kp, f)) for kp in res.key_points for f in attempts.TEXT_FIELDS if getattr(kp, f)]
        leaks = [t for t in shown if re.search(r"131[,_]?072|1\.31072e", t)]
        assert not leaks, leaks
        assert attempts.withheld_mark() in shown[1] and "[withheld]" not in shown[1] or lang == "en"
    finally:
        i18n.use(before)


def test_a_number_is_withheld_by_its_value_not_its_digits():
    kp = KeyPointResult("x", "failed", "a 1,310,720 b 131072.0 c 1-131072 d 131,0720", got="[-100, 100]")
    out = attempts._redacted(kp, {"131072", "-100"})
    mark = attempts.withheld_mark()
    assert out.message == f"a 1,310,720 b {mark} c 1-{mark} d 131,0720", out.message
    assert out.got == f"[{mark}, 100]", out.got


def test_a_withheld_word_another_contract_names_stays_readable_there():
    """Red team (an ML learner): C4's oom_attribution withheld "activations", and P3's hint, whose
    contract returns an "activations" key, read "the gradients and the [withheld] are not all live
    at once". In C4's own texts the word stays hidden."""
    c4 = ExerciseResult(
        "C4",
        "graded",
        [
            KeyPointResult("oom_attribution", "failed", "attribute_oom(...)", expected="activations", got="x"),
            KeyPointResult("remedy_per_block", "failed", "the activations block", expected="y", got="z"),
        ],
    )
    p3 = ExerciseResult(
        "P3", "graded", [KeyPointResult("peak_block", "failed", "peak", hint="the activations are freed")]
    )
    out = attempts.gate({"C4": c4, "P3": p3}, None)
    mark = attempts.withheld_mark()
    assert out["P3"].key_points[0].hint == "the activations are freed"
    assert mark in out["C4"].key_points[1].message
    secret = ExerciseResult(
        "C4", "graded", [KeyPointResult("oom_attribution", "failed", "m", expected="not_a_word_of_any_stub", got="x")]
    )
    p3 = ExerciseResult("P3", "graded", [KeyPointResult("peak_block", "failed", "it is not_a_word_of_any_stub")])
    assert mark in attempts.gate({"C4": secret, "P3": p3}, None)["P3"].key_points[0].message


def _a9_and_a2() -> dict[str, ExerciseResult]:
    """A first failure of A9 and A2 whose texts would give away what the gate withholds: A9's recall
    value (131072 bytes a token) in its neighbour's message, A9's and A2's course lines (the KV-cache
    shape, "bf16: 2")."""
    return {
        "A9": ExerciseResult(
            "A9",
            "graded",
            [
                KeyPointResult("matches_dynamic_cache", "failed", "bytes", expected="4096", got="2048"),
                KeyPointResult("llama3_8b_per_token", "failed", "bytes per token", expected="131072", got="1"),
                KeyPointResult(
                    "fits_decision",
                    "failed",
                    "fits_on_gpu(gpu_bytes=131,072, weight_bytes=5)",
                    expected="True",
                    got="False",
                ),
            ],
        ),
        "A2": ExerciseResult(
            "A2",
            "graded",
            [KeyPointResult(p.id, "failed", "nbytes", expected="8", got="4") for p in catalog.get("A2").key_points],
        ),
    }


def _leaks(texts: list[str]) -> list[str]:
    said = re.compile(r"131[,_]?072|n_kv_heads|bf16: 2")
    return [t for t in texts if said.search(t)]


def test_the_classroom_test_cells_follow_the_reports_gate(tmp_path, monkeypatch):
    """Red team (issue 28): the classroom's feedback printed what make grade's report withholds (A9's
    bytes a token in a neighbour's failing input). Autograde's test cells go through attempts.gate."""
    import nbformat
    from traitlets.config import Config

    from grader.classroom import pipeline
    from grader.engine import cache

    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(pipeline.manifest, "verify", lambda course: None)
    monkeypatch.setattr(pipeline, "grade_answers", lambda *a, **kw: _a9_and_a2())
    cells = []
    for ex_id, res in _a9_and_a2().items():
        cells.append(
            nbformat.v4.new_code_cell("x", metadata={"nbgrader": {"grade_id": f"{ex_id}__answer", "solution": True}})
        )
        cells += [
            nbformat.v4.new_code_cell(
                "", metadata={"nbgrader": {"grade_id": f"{ex_id}__{kp.key_point}", "grade": True, "points": 1}}
            )
            for kp in res.key_points
        ]
    step = pipeline.GradeAnswerCells(config=Config({"CourseDirectory": {"root": str(tmp_path)}}))
    nb, _resources = step.preprocess(
        nbformat.v4.new_notebook(cells=cells), {"nbgrader": {"student": "s1", "assignment": "set_A"}}
    )
    printed = [o["text"] for c in nb.cells for o in c.get("outputs", [])]
    assert len(printed) == 3 + len(catalog.get("A2").key_points)
    assert not _leaks(printed), _leaks(printed)


def test_the_students_kernel_and_gradescope_follow_the_reports_gate(monkeypatch):
    """The same rule in the student's own kernel (a test cell run by Validate) and in Gradescope's
    results.json, where nothing counts attempts: every withheld fact stays withheld."""
    from grader.classroom import notebooks
    from grader.course import levels

    results = _a9_and_a2()
    printed = []
    for ex_id, res in results.items():
        source = notebooks.ANSWER_MARK.format(id=ex_id) + "\n"
        key = (ex_id, notebooks.hashlib.sha256(source.encode()).hexdigest())
        monkeypatch.setitem(notebooks._graded, key, res)  # graded already: nothing runs
        printed += [notebooks.kernel_verdict(ex_id, kp.key_point, [source])[1] for kp in res.key_points]
    summary = levels.summarize({k: r.outcome() for k, r in results.items()})
    printed += [t["output"] for t in terminal.gradescope_json(results, summary, 0.0)["tests"]]
    assert not _leaks(printed), _leaks(printed)
