"""The autograde log line (grader/classroom/pipeline.py's _summary) speaks the course's language: a course
built ``--lang zh`` logged "graded now: X2 1/2 (38.6 s); left as released (not run): X1, X3" in English."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("nbgrader")

from grader import i18n  # noqa: E402
from grader.classroom.pipeline import _summary  # noqa: E402


def _result(passed: list[bool], cached: bool = False):
    return SimpleNamespace(key_points=[SimpleNamespace(passed=p) for p in passed], duration_s=38.6, cached=cached)


EN_LINE = "; ".join(
    ["graded now: X2 1/2 (38.6 s)", "unchanged since the last autograde: X3 1/1", "left as released (not run): X1, X4"]
)
RESULTS = {"X1": _result([False]), "X2": _result([True, False]), "X3": _result([True], cached=True), "X4": _result([])}


@pytest.mark.parametrize(
    "lang,line",
    [
        (
            "en",
            EN_LINE,
        ),
        ("zh", "本次评分：X2 1/2 (38.6 s)；自上次 autograde 以来未改动：X3 1/1；保持发布时的原样（未运行）：X1, X4"),
    ],
)
def test_the_autograde_log_line_is_in_the_courses_language(lang, line):
    before = i18n.current()
    try:
        i18n.use(lang)
        assert _summary(RESULTS, ["X2", "X3"]) == line
    finally:
        i18n.use(before)
