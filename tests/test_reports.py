"""The JSON report follows Gradescope's schema; the HTML report shows level, failures, charts."""

from __future__ import annotations

from grader.course import catalog
from grader.reports import html as html_report
from grader.course import levels
from grader.reports import terminal as report
from grader.engine.results import ExerciseResult, KeyPointResult


def sample_results() -> dict[str, ExerciseResult]:
    results = {ex.id: ExerciseResult(ex.id, "not_available") for ex in catalog.CATALOG}
    a3 = catalog.get("A3")
    results["A3"] = ExerciseResult("A3", "graded", [
        KeyPointResult(a3.key_points[0].id, "passed",
                       figures=[{"kind": "line", "title": "loss", "series": {"yours": [[0, 4.8], [10, 2.0]]}}]),
        KeyPointResult(a3.key_points[1].id, "failed", "broadcast_shape((2,), (2, 2))", expected="(2, 2)",
                       got="(2, 2, 1)", example="pair=((2,), (2, 2))"),
        KeyPointResult(a3.key_points[2].id, "timeout", "broadcast_shape() timed out after 20 s"),
    ], duration_s=3.2)
    return results


def test_gradescope_schema():
    results = sample_results()
    summary = levels.summarize({k: r.outcome() for k, r in results.items() if r.available})
    data = report.gradescope_json(results, summary, 12.5)
    assert data["execution_time"] == 12.5 and data["score"] == 1
    assert data["extra_data"]["level"] == "none" and data["extra_data"]["pass_line"] is False
    a3 = [t for t in data["tests"] if t["name"].startswith("A3 ·")]
    assert [t["status"] for t in a3] == ["passed", "failed", "failed"]
    for t in data["tests"]:
        assert {"name", "score", "max_score", "output", "tags", "visibility"} <= set(t)
        # Gradescope colours a test by "status"; an uncounted (0/0) one has none, so it shows neutral
        assert ("status" in t) == (t["max_score"] > 0), t
    failed = a3[1]["output"]
    assert "expected: (2, 2)" in failed and "got:      (2, 2, 1)" in failed and "re-read:  part 2" in failed
    not_built = [t for t in data["tests"] if t["output"] == "not available yet"]
    assert len(not_built) == len(catalog.CATALOG) - 1 and all(t["max_score"] == 0 for t in not_built)


def test_html_report_content():
    results = sample_results()
    summary = levels.summarize({k: r.outcome() for k, r in results.items() if r.available})
    page = html_report.render(results, summary, "answers/<b>")
    assert "Level: <b>none</b>" in page and "answers/&lt;b&gt;" in page  # escaped
    assert "aligns_from_the_right" in page and "timed out after 20 s" in page
    assert page.count("data:image/png;base64,") == 2  # parts chart + the attached loss curve
