"""Feedback that names the real mistake (issue 17): what a stub forbids is enforced, the failing
input is the call that failed, and a wrong answer that equals a registered mutant is named.

Each case is a small learner file graded for real (sandbox, zygote), on the key points it needs.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from grader import i18n
from grader.course import catalog, do_not_call as forbidden
from grader.course.catalog import ROOT
from grader.engine import misconceptions, runner
from grader.isolation import scan

P1, A3, A4, A1, A2 = (catalog.get(i) for i in ("P1", "A3", "A4", "A1", "A2"))


def _grade(tmp_path, ex, source, key_points=None):
    path = tmp_path / f"{ex.module}.py"
    path.write_text(textwrap.dedent(source))
    return runner.grade_exercise(ex, path, key_points=key_points)


# ------------------------------------------------------------------ forbidden calls
FORBIDDEN_CASES = {
    # (exercise, source, key points, status every one must have, text in the message)
    "p1_calls_sdpa": (
        P1,
        """
        import torch.nn.functional as F
        def causal_attention(q, k, v):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)
        """,
        None,
        "forbidden_call",
        "line 4 (scaled_dot_product_attention)",
    ),
    "p1_sdpa_through_getattr": (
        P1,
        """
        import torch.nn.functional as F
        _name = "scaled_dot_" + "product_attention"
        def causal_attention(q, k, v):
            return getattr(F, _name)(q, k, v, is_causal=True)
        """,
        ["float32_matches_sdpa", "no_future_leak"],
        "forbidden_call",
        "scaled_dot_product_attention",
    ),
    "p1_multihead_module": (
        P1,
        """
        import torch
        def causal_attention(q, k, v):
            b, h, T, d = q.shape
            m = torch.nn.MultiheadAttention(d, 1, batch_first=True, bias=False, dtype=q.dtype)
            return m(q.flatten(0, 1), k.flatten(0, 1), v.flatten(0, 1))[0].view(b, h, T, d)
        """,
        ["float64_matches_sdpa"],
        "forbidden_call",
        "MultiheadAttention",
    ),
    "a3_numpy": (
        A3,
        """
        from numpy import broadcast_shapes as bs
        def broadcast_shape(a, b):
            return tuple(bs(a, b))
        """,
        ["matches_numpy"],
        "forbidden_call",
        "broadcast_shapes",
    ),
    "a3_numpy_hidden": (
        A3,
        """
        import importlib
        def broadcast_shape(a, b):
            return tuple(getattr(importlib.import_module("numpy"), "broadcast_" + "shapes")(a, b))
        """,
        ["matches_numpy", "raises_on_incompatible"],
        "forbidden_call",
        "broadcast_shapes",
    ),
    "a2_imports_numpy": (
        A2,
        """
        import numpy as np
        def nbytes(shape, dtype):
            return int(np.zeros(shape, dtype=dtype).nbytes)
        def index_shape(shape, index):
            return np.zeros(shape)[index].shape
        """,
        ["nbytes_matches_meta_tensor"],
        "forbidden_call",
        "import numpy",
    ),
}


@pytest.mark.parametrize("case", sorted(FORBIDDEN_CASES))
def test_forbidden_call_fails_every_key_point(tmp_path, case):
    ex, source, kps, status, needle = FORBIDDEN_CASES[case]
    res = _grade(tmp_path, ex, source, kps)
    assert res.key_points and all(k.status == status for k in res.key_points), [
        (k.key_point, k.status, k.message[:120]) for k in res.key_points
    ]
    assert all(needle in k.message for k in res.key_points), [k.message for k in res.key_points]


def test_a4_optimizer_step_is_watched(tmp_path):
    source = (ROOT / "solutions" / "a4_grad_accum.py").read_text() + textwrap.dedent("""

        _right = accumulate_grads
        def accumulate_grads(model, micro_batches):
            import torch
            _right(model, micro_batches)
            torch.optim.SGD(model.parameters(), lr=0.0).step()  # a step the stub forbids
        """)
    res = _grade(tmp_path, A4, source, ["matches_full_batch"])
    [kp] = res.key_points
    assert kp.status == "forbidden_call" and "SGD.step()" in kp.message, kp


def test_self_test_under_main_guard_is_allowed(tmp_path):
    source = (ROOT / "solutions" / "p1_causal_attention.py").read_text() + textwrap.dedent("""

        if __name__ == "__main__":
            import torch.nn.functional as F
            q = k = v = torch.randn(1, 1, 4, 8)
            print((causal_attention(q, k, v) - F.scaled_dot_product_attention(q, k, v, is_causal=True)).abs().max())
        """)
    res = _grade(tmp_path, P1, source, ["float32_matches_sdpa"])
    assert [k.status for k in res.key_points] == ["passed"], res.key_points


def test_scan_ignores_comments_docstrings_and_own_names(tmp_path):
    path = tmp_path / "x.py"
    path.write_text(
        '"""do not call scaled_dot_product_attention"""\n# broadcast_shapes\n'
        "broadcast = 3\ndef f(broadcast_to):\n    return broadcast_to\n"
    )
    assert scan.scan_source(path, forbidden.rule_for("P1")) == []
    assert scan.scan_source(path, forbidden.rule_for("A3")) == []


def test_scan_reads_names_built_of_constants(tmp_path):
    """A name built at run time from constants is still the name (issue 17, red team): the scan
    folds concatenation, joins, f-strings, slices and names bound once to such strings."""
    rule = forbidden.rule_for("P1")
    for expr in (
        '"scaled_dot_" + "product_attention"',
        '"".join(["scaled_dot", "_product_attention"])',
        'f"scaled_dot_{_P}"',
        '"noitnetta_tcudorp_tod_delacs"[::-1]',
        '"torch.nn.functional.scaled_dot_product_attention"',
        "_A + _B",
    ):
        path = tmp_path / "p1.py"
        path.write_text(
            f'import torch.nn.functional as F\n_P = "product_attention"\n_A = "scaled_dot_"\n'
            f'_B = "product_attention"\ndef f(q):\n    return getattr(F, {expr})(q, q, q)\n'
        )
        assert any("scaled_dot_product_attention" in name for _, name in scan.scan_source(path, rule)), expr
    path = tmp_path / "a3.py"
    path.write_text('def broadcast_shape(a, b):\n    raise ValueError("cannot broadcast " + str(a))\n')
    assert scan.scan_source(path, forbidden.rule_for("A3")) == []  # a message is not a name
    path.write_text('import importlib\nm = importlib.import_module("to" + "rch")\n')
    assert scan.scan_source(path, forbidden.rule_for("A2")) == [(2, "import torch")]


WATCHED = {
    # (exercise, source, call, args, None if allowed else the text the forbidden call's message names)
    "p1_char_codes_in_a_thread": (
        "P1",
        """
        import threading
        import torch.nn.functional as F
        _N = "".join(map(chr, [115, 99, 97, 108, 101, 100, 95, 100, 111, 116, 95, 112, 114, 111, 100, 117, 99,
                               116, 95, 97, 116, 116, 101, 110, 116, 105, 111, 110]))
        def causal_attention(q, k, v):
            out = []
            t = threading.Thread(target=lambda: out.append(getattr(F, _N)(q, k, v, is_causal=True)))
            t.start(); t.join()
            return out[0]
        """,
        "causal_attention",
        "tensors",
        "scaled_dot_product_attention",
    ),
    "a3_numpy_random_imported": (
        "A3",
        """
        import numpy.random
        def broadcast_shape(a, b):
            return (max(len(a), len(b)),)
        """,
        "broadcast_shape",
        ((2,), (2,)),
        None,
    ),
    "a3_numpy_type_prefetched": (
        "A3",
        """
        import numpy as np, operator
        _N = np.ndarray
        def broadcast_shape(a, b):
            x, y = _N(a, bool, b"\\0", 0, (0,) * len(a)), _N(b, bool, b"\\0", 0, (0,) * len(b))
            return tuple(operator.and_(x, y).shape)
        """,
        "broadcast_shape",
        ((2, 1), (3,)),
        "numpy.ndarray",
    ),
    "a2_import_through_builtins": (
        "A2",
        """
        _t = __builtins__["__im" + "port__"](bytes([116, 111, 114, 99, 104]).decode())
        def nbytes(shape, dtype):
            return int(getattr(_t, "empty")(tuple(shape), device="meta").nbytes)
        """,
        "nbytes",
        ((2, 3), "float32"),
        "torch",
    ),
}


@pytest.mark.parametrize("start", ["zygote", "fresh interpreter"])
@pytest.mark.parametrize("case", sorted(WATCHED))
def test_rule_is_on_whatever_the_learner_process_preloads(tmp_path, case, start):
    """A one-exercise grade forks from the light zygote (numpy only), the harness from the heavy
    one (torch too): a rule is on in both (it was off for P1 without torch loaded), and a module
    that imports numpy.random is not broken by it (a type replaced by a function broke it)."""
    import torch

    from grader.isolation import zygote
    from grader.isolation.learner import Learner, LearnerForbidden

    ex_id, source, name, args, needle = WATCHED[case]
    ex = catalog.get(ex_id)
    path = tmp_path / f"{ex.module}.py"
    path.write_text(textwrap.dedent(source))
    if args == "tensors":
        args = (torch.randn(1, 2, 4, 8),) * 3
    handle = Learner(
        ex.module,
        path,
        zygote=zygote.start("heavy") if start == "zygote" else None,
        import_timeout_s=120,
        forbidden=forbidden.rule_for(ex_id),
    )
    try:
        if needle is None:
            handle.call(name, *args, timeout_s=60)
        else:
            with pytest.raises(LearnerForbidden, match="forbidden call") as caught:
                handle.call(name, *args, timeout_s=60)
            assert needle in str(caught.value), caught.value
    finally:
        handle.close()


def test_every_do_not_call_in_a_stub_has_a_rule():
    """Every stub sentence that forbids a call ("do not call", "don't call", "never read the whole
    file", "do not create tensors", "never model.forward(x)") has a rule; the list of exercises
    whose stubs forbid something is pinned, so a new one must add its rule."""
    phrase = re.compile(r"\b(do not|don't|never) (call|use|create|read the whole|model\.forward)", re.I)
    forbidding = set()
    for ex in catalog.available():
        text = (ROOT / "exercises" / f"{ex.module}.py").read_text()
        if phrase.search(text):
            forbidding.add(ex.id)
            assert forbidden.rule_for(ex.id), f"{ex.id}'s stub says {phrase.search(text).group(0)!r} but has no rule"
    assert forbidding >= {"A2", "A3", "A4", "P1"}, forbidding
    # and the converse: a rule without a sentence in its stub forbids what the learner was never told
    assert set(forbidden.RULES) <= forbidding, set(forbidden.RULES) - forbidding


# ------------------------------------------------------------------ failing input and misconception
def test_wrong_answer_is_named_and_its_input_shown(tmp_path):
    res = _grade(
        tmp_path,
        P1,
        """
        import torch
        def causal_attention(q, k, v):  # the 1/sqrt(d) scale forgotten
            T = q.shape[-2]
            future = torch.ones(T, T, dtype=torch.bool).triu(1)
            s = torch.einsum("bhtd,bhsd->bhts", q, k).masked_fill(future, float("-inf"))
            return torch.einsum("bhts,bhsd->bhtd", torch.softmax(s, dim=-1), v)
        """,
        ["float64_matches_sdpa"],
    )
    [kp] = res.key_points
    assert kp.status == "failed"
    assert "1/sqrt(d)" in kp.misconception and kp.hint.startswith(kp.misconception), kp
    assert kp.example.startswith("failing input: causal_attention(q=tensor(") and "float64" in kp.example, kp.example
    assert "Falsifying" not in kp.example and "Failing test case" not in kp.example


def test_a_raising_answer_is_named_by_what_it_does(tmp_path):
    res = _grade(
        tmp_path,
        A3,
        """
        def broadcast_shape(a, b):
            if len(a) != len(b):
                raise ValueError("different ranks")
            return tuple(x if y == 1 else y for x, y in zip(a, b))
        """,
        ["different_lengths"],
    )
    [kp] = res.key_points
    # A property of the key point (grader/checks/test_a3_broadcast.py) names it: it raises on
    # different ranks, confirmed on the probe (3,) with (3, 1); no wrong answer is replayed.
    assert kp.status in ("failed", "error") and "refuses shapes of different lengths" in kp.misconception, kp
    # the mistake is named in the reader's language: its Chinese sentence where Chinese is read
    assert "维数不同就报错了" in i18n.show(kp.misconception, "zh") and kp.naming_cpu_s <= 1.0, kp
    assert kp.example.startswith("failing input: broadcast_shape(a=(8, 1, 64), b=(16, 64))"), kp.example


def test_describe_is_short():
    import torch

    text = misconceptions.describe({"q": torch.zeros(2, 3, 64, 64), "ids": list(range(500)), "s": "x" * 1000})
    assert len(text) < 200 and "tensor(2, 3, 64, 64) float32" in text and "(len=500)" in text, text


def test_a_shown_input_is_python_the_learner_can_call_with():
    """A failing input is shown as the call got it: an index's slices too (A2's "(:, -1:)" was no Python)."""
    index = (slice(None), slice(-1, None), slice(None, None, 3), slice(2, 100), None, -1)
    text = misconceptions.describe(index)
    assert eval(text, {"slice": slice}) == index, text  # noqa: S307 - our own text


def test_flaky_check_measurement_is_a_check_error_not_the_learners():
    """Hypothesis calls a key point flaky when one input gave two outcomes. When the first outcome
    was the check's own error (a real profile that did not show its setup under load), the learner
    is not told to seed its randomness: that is a check error."""
    from hypothesis.errors import FlakyFailure

    from grader.checks.support.checking import KeyPointFailure
    from grader.engine.plugin import _classify

    class Info:
        def __init__(self, value):
            self.value = value

    from grader.isolation import learner as learner_module

    learner_module.forget_answers()  # nothing another test's learners answered
    own = FlakyFailure("unreliable", [RuntimeError("the compute-bound setup did not show clearly")])
    assert _classify(Info(own))["status"] == "check_error"
    # the learner's randomness is blamed only where a call was seen answering two ways (tests/test_verdicts.py)
    learner_module.note_answer(b"busy(3)", "busy()", b"1")
    learner_module.note_answer(b"busy(3)", "busy()", b"2")
    try:
        out = _classify(Info(FlakyFailure("unreliable", [KeyPointFailure("device_time_ms(ops)", 1.0, 2.0)])))
    finally:
        learner_module.forget_answers()
    assert out["status"] == "failed" and "deterministic" in out["message"] and "busy()" in out["message"]


def _hypothesis_notes() -> str:
    """What Hypothesis itself writes under a failure it found (the real library's words)."""
    from hypothesis import given, settings, strategies as st

    @settings(database=None, derandomize=True)
    @given(n=st.integers())
    def test_drawn(n):
        assert n < 5

    try:
        test_drawn()
    except AssertionError as exc:
        return "\n".join(getattr(exc, "__notes__", []))
    raise AssertionError("Hypothesis found no failure")


def test_hypothesis_own_words_never_reach_the_learner():
    """'Failing test case: test_x(...)' (Hypothesis 6.1xx; 'Falsifying example' before it) can ride
    on any recorded text: the feedback of every mode (terminal.feedback) keeps what else it says."""
    from grader.engine.results import KeyPointResult
    from grader.reports import terminal

    notes = _hypothesis_notes()
    assert "Failing test case: test_drawn(" in notes or "Falsifying example: test_drawn(" in notes
    old = notes.replace("Failing test case", "Falsifying example") + "\nYou can reproduce this example by ..."
    ex = catalog.get("A3")
    kp = KeyPointResult(
        "matches_numpy",
        "check_error",
        "ValueError: shapes differ\n" + notes,
        got="(2, 3)\n" + old,
        traceback="Traceback (most recent call last):\n  line 3\n" + notes,
    )
    text = terminal.feedback(ex, kp, reveal_expected=False)
    for said in ("Failing test case", "Falsifying example", "test_drawn", "n=", "You can reproduce"):
        assert said not in text, text
    assert "ValueError: shapes differ" in text and "(2, 3)" in text and "line 3" in text
    assert misconceptions.without_hypothesis("plain words\n)") == "plain words\n)"  # only Hypothesis's lines go
