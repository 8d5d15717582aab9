"""Bad learner code costs its own exercise only, and is reported as exactly what happened.

Each case is a broken ``a3_broadcast.py`` graded with short limits; the catalog entry is
copied with those limits so the real limits (20 s a call) don't slow the suite down.
"""

from __future__ import annotations

import dataclasses
import textwrap

import pytest

from grader.course import catalog
from grader.engine import runner
from grader.course.catalog import ROOT
from tests.conftest import own_answer

A3 = dataclasses.replace(catalog.get("A3"), call_timeout_s=3, import_timeout_s=10, timeout_s=60, memory_gib=2)

CASES = {
    "syntax_error": ("def broadcast_shape(a, b)\n    return a\n", "import_error", "line 1"),
    "raises_at_import": ("raise RuntimeError('boom')\n", "import_error", "boom"),
    "sys_exit_at_import": ("import sys\nsys.exit(0)\n", "crashed", "sys.exit(0)"),
    "os_exit_at_import": ("import os\nos._exit(0)\n", "crashed", "exited (code 0)"),
    "missing_function": ("def broadcast(a, b):\n    return a\n", "error", "no function 'broadcast_shape'"),
    "infinite_loop": ("def broadcast_shape(a, b):\n    while True:\n        pass\n", "timeout", "timed out after 3 s"),
    "infinite_loop_at_import": ("while True:\n    pass\n", "timeout", "importing your module timed out"),
    "eats_memory": ("def broadcast_shape(a, b):\n    return bytearray(30 * 2**30)\n", "oom", "2 GiB"),
    "os_exit_in_call": ("import os\ndef broadcast_shape(a, b):\n    os._exit(0)\n", "crashed", "exited (code 0)"),
    "segfault": ("import ctypes\ndef broadcast_shape(a, b):\n    ctypes.string_at(0)\n", "crashed", "SIGSEGV"),
    "always_equal_object": (textwrap.dedent("""
        class Anything(tuple):
            def __eq__(self, other):
                return True
        def broadcast_shape(a, b):
            return Anything()
        """), "bad_output", "Anything"),
    "wrong_return_type": ("def broadcast_shape(a, b):\n    return 'shape'\n", "failed", "tuple of non-negative ints"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_code_is_reported_as_what_it_is(tmp_path, case):
    source, status, needle = CASES[case]
    path = tmp_path / "a3_broadcast.py"
    path.write_text(source)
    res = runner.grade_exercise(A3, path)
    statuses = {k.status for k in res.key_points}
    messages = " ".join(k.message for k in res.key_points)
    assert status in statuses and "passed" not in statuses, (statuses, messages)
    assert needle in messages, messages


def test_one_broken_exercise_costs_only_itself(tmp_path):
    others = [ex for ex in catalog.available() if ex.id != "A3" and ex.timeout_s <= 120][:2]
    if not others:
        pytest.skip("needs a second available exercise")
    for ex in others:
        own_answer(ROOT / "solutions" / f"{ex.module}.py", tmp_path)
    (tmp_path / "a3_broadcast.py").write_text("def broadcast_shape(a, b):\n    import os; os._exit(1)\n")
    results = runner.grade(tmp_path, only=["A3"] + [ex.id for ex in others])
    assert all(k.status == "crashed" for k in results["A3"].key_points)
    for ex in others:
        assert all(k.passed or k.status == "not_verifiable" for k in results[ex.id].key_points), results[ex.id]


def test_unavailable_exercises_are_listed_not_dropped(monkeypatch):
    """An exercise registered before its files exist is reported, not silently dropped."""
    planned = dataclasses.replace(catalog.get("A3"), id="Z9", module="z9_not_built_yet")
    monkeypatch.setattr(catalog, "CATALOG", catalog.CATALOG + (planned,))
    monkeypatch.setitem(catalog.BY_ID, "Z9", planned)
    results = runner.grade(ROOT / "exercises", only=["Z9"])
    assert list(results) == ["Z9"] and results["Z9"].status == "not_available"
