"""The JSON report follows Gradescope's schema; the HTML report shows level, failures, charts."""

from __future__ import annotations

import dataclasses
import re

from rich.console import Console

from grader import cli
from grader.course import catalog, levels
from grader.engine import cache
from grader.engine.results import ExerciseResult, KeyPointResult
from grader.reports import html as html_report, terminal as report


def sample_results() -> dict[str, ExerciseResult]:
    results = {ex.id: ExerciseResult(ex.id, "not_available") for ex in catalog.CATALOG}
    a3 = catalog.get("A3")
    results["A3"] = ExerciseResult(
        "A3",
        "graded",
        [
            KeyPointResult(
                a3.key_points[0].id,
                "passed",
                figures=[{"kind": "line", "title": "loss", "series": {"yours": [[0, 4.8], [10, 2.0]]}}],
            ),
            KeyPointResult(
                a3.key_points[1].id,
                "failed",
                "broadcast_shape((2,), (2, 2))",
                expected="(2, 2)",
                got="(2, 2, 1)",
                example="pair=((2,), (2, 2))",
            ),
            KeyPointResult(a3.key_points[2].id, "timeout", "broadcast_shape() timed out after 20 s"),
        ],
        duration_s=3.2,
    )
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
    assert "different_lengths" in page and "timed out after 20 s" in page
    assert page.count("<svg") == 2  # parts chart + the attached loss curve


def all_passed(ex_id: str) -> ExerciseResult:
    return ExerciseResult(ex_id, "graded", [KeyPointResult(kp.id, "passed") for kp in catalog.get(ex_id).key_points])


def test_counts_come_from_the_catalog(monkeypatch, tmp_path):
    """An open set follows the catalog: one more X exercise than the catalog has moves its count in
    the levels, the terminal report and the JSON (sets R, A, B and C are closed: tests/test_levels.py)."""
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path)
    n = sum(ex.set == "X" for ex in catalog.CATALOG) + 1
    new_id = f"X{n}"
    extra = dataclasses.replace(catalog.get("X2"), id=new_id, module=f"x{n}_not_built_yet")
    monkeypatch.setattr(catalog, "CATALOG", catalog.CATALOG + (extra,))
    monkeypatch.setitem(catalog.BY_ID, new_id, extra)
    results = {ex.id: ExerciseResult(ex.id, "not_available") for ex in catalog.CATALOG}
    results.update(X2=all_passed("X2"))
    summary = levels.summarize({k: r.outcome() for k, r in results.items() if r.available})
    assert summary.sets["X"] == (1, n)

    console = Console(record=True, width=200)
    report.print_report(results, summary, console)
    text = console.export_text()
    assert f"1/{n} questions" in text and "A ≥ 8" in text  # the course's pass line, whatever X holds
    assert "A ≥ 8" in html_report.render(results, summary)
    extra_data = report.gradescope_json(results, summary, 1.0)["extra_data"]
    assert extra_data["sets"]["X"] == f"1/{n}" and extra_data["needed"]["A"] == 8
    console = Console(record=True, width=200)
    cli._print_levels([{"student": "ada", **summary.row()}], console)
    assert "A 0/10" in console.export_text()


def test_html_shows_each_chart_once(monkeypatch, tmp_path):
    """Hypothesis re-runs a check per example and each run attaches its chart: one image per
    measurement, one heading per key point, a link where another key point shows the same chart."""
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path)
    curve = {"kind": "line", "title": "SFT loss with EOS masked", "series": {"EOS masked": [[0, 3.0], [1, 1.0]]}}
    bars = [
        {
            "kind": "bars",
            "title": f"P3 bytes, B={b}",
            "labels": ["peak"],
            "series": {"estimate": [b], "measured": [b + 1]},
        }
        for b in range(12)
    ]
    x5, p3 = catalog.get("X5").key_points, catalog.get("P3").key_points
    results = {
        "P3": ExerciseResult("P3", "graded", [KeyPointResult(p3[0].id, "passed", figures=bars + bars)]),
        "X5": ExerciseResult(
            "X5",
            "graded",
            [
                KeyPointResult(x5[0].id, "passed", figures=[curve] * 30),
                KeyPointResult(x5[1].id, "passed", figures=[curve]),
            ],
        ),
    }
    summary = levels.summarize({k: r.outcome() for k, r in results.items()})
    page = html_report.render(results, summary)
    images = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    assert len(images) == len(set(images)) == 1 + 12 + 1  # parts chart, P3's twelve, X5's curve
    headings = re.findall(r"<h\d>(.*?)</h\d>", page)
    assert len(headings) == len(set(headings)), headings
    assert page.count("<a href='#chart-") == 1  # X5's second key point links to the curve


def test_parts_chart_legend_inside_the_figure(monkeypatch):
    figures = []
    monkeypatch.setattr(html_report, "_svg", lambda fig: figures.append(fig) or "")
    html_report._parts_chart(sample_results())
    (fig,) = figures
    fig.canvas.draw()
    legends = fig.legends + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    assert legends
    for legend in legends:
        box = legend.get_window_extent()
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1 and fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1


def test_a_report_written_to_a_file_keeps_its_tables_whole(monkeypatch, tmp_path):
    """An ML learner's `make grade > file`: rich took 80 columns and cut the "graded" cell ("now, 15.0"
    without its "s", no right border) of the B, C, P and X tables. A file gets FILE_WIDTH columns; a
    COLUMNS the user set wins."""
    monkeypatch.delenv("COLUMNS", raising=False)
    with (tmp_path / "report.txt").open("w") as f:
        console = report.new_console(file=f)
        assert not console.is_terminal and console.width == report.FILE_WIDTH
        monkeypatch.setenv("COLUMNS", "100")
        assert report.new_console(file=f).width == 100


def test_no_course_to_reread_where_the_course_is_not_the_problem():
    """A syntax error, a dead process, a file refused: the feedback names what was checked but points
    to no course section and quotes no lesson, in every report (terminal, HTML, Gradescope, the
    classroom's cells); a wrong answer still does."""
    from grader.classroom import notebooks

    a3, a5 = catalog.get("A3"), catalog.get("A5")
    results = {ex.id: ExerciseResult(ex.id, "not_available") for ex in catalog.CATALOG}
    results["A5"] = ExerciseResult(
        "A5", "graded", [KeyPointResult(kp.id, "import_error", "SyntaxError: line 3") for kp in a5.key_points]
    )
    kps = [
        KeyPointResult(a3.key_points[i].id, s, "m", lesson="x") for i, s in enumerate(["crashed", "failed", "refused"])
    ]
    results["A3"] = ExerciseResult("A3", "graded", kps)
    summary = levels.summarize({k: r.outcome() for k, r in results.items() if r.available})
    console = Console(record=True, width=300)
    report.print_report(results, summary, console)
    text = console.export_text()
    assert text.count("re-read:") == 1 and a3.key_points[1].reread_text() in text
    assert a5.key_points[0].reread_text() not in text and text.count("course:") == 1
    page = html_report.render(results, summary)
    assert page.count("re-read:") == 1 and a5.key_points[0].reread_text() not in page
    outputs = {t["name"]: t["output"] for t in report.gradescope_json(results, summary, 1.0, gated=True)["tests"]}
    for k in kps:
        for shown in (outputs[f"A3 · {k.key_point}"], notebooks.class_feedback(a3, k)):
            assert ("re-read:" in shown) == (k.status == "failed") and "checks:" in shown, (k.status, shown)


def test_a_grade_with_only_reports_the_others_failures_apart():
    """`make grade ONLY=A3`: the failures listed are the chosen exercises'; an exercise outside
    --only that failed in an earlier run is named apart, as an earlier result, and the level box
    says it counts every exercise's latest result. Without --only nothing is set apart."""
    results = sample_results()
    a2 = catalog.get("A2")
    results["A2"] = ExerciseResult("A2", "graded", [KeyPointResult(a2.key_points[0].id, "failed", "m")], cached=True)
    summary = levels.summarize({k: r.outcome() for k, r in results.items() if r.available})
    assert report.outside(results, ["A3"]) == ["A2"] and report.outside(results, None) == []

    def shown(only):
        console = Console(record=True, width=400)
        report.print_report(results, summary, console, only=only)
        return " ".join(console.export_text().split()), html_report.render(results, summary, only=only)

    for text in shown(["A3"]):
        assert f"A2 · {a2.key_points[0].id}" not in text and "A3 · different_lengths" in text
        assert "not graded now (outside --only): A2;" in text and "A3 chosen now (--only)" in text
    for text in shown(None):
        assert f"A2 · {a2.key_points[0].id}" in text and "--only" not in text


def test_grade_only_hands_its_choice_to_the_reports(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "cache")
    results = sample_results()
    a2 = catalog.get("A2")
    results["A2"] = ExerciseResult("A2", "graded", [KeyPointResult(a2.key_points[0].id, "failed", "m")], cached=True)
    monkeypatch.setattr(cli.runner, "grade", lambda *a, **k: results)
    monkeypatch.setenv("COLUMNS", "400")
    (tmp_path / "answers").mkdir()
    html = tmp_path / "r.html"
    argv = ["grade", "--target", str(tmp_path / "answers"), "--only", "a3", "--no-quiz", "--lang", "en"]
    assert cli.main([*argv, "--json", str(tmp_path / "r.json"), "--html", str(html)]) == 0
    for text in (" ".join(capsys.readouterr().out.split()), html.read_text()):
        assert "(outside --only): A2;" in text and "A3 chosen now" in text and f"A2 · {a2.key_points[0].id}" not in text


def test_an_exercise_of_which_nothing_was_verified_is_not_shown_passed():
    """P1 with every key point "not verifiable" read "0/0 passed (5 not verified here)", green: it
    passed nothing (levels.question_passed counts it so); one verified pass among them is still green."""
    p1 = catalog.get("P1")
    none = ExerciseResult("P1", "graded", [KeyPointResult(kp.id, "not_verifiable", "m") for kp in p1.key_points])
    assert report._exercise_line(none) == ("0/0", "not verifiable here") and not report.all_passed(none)
    one = dataclasses.replace(none, key_points=[KeyPointResult(p1.key_points[0].id, "passed"), *none.key_points[1:]])
    assert report._exercise_line(one)[1].startswith("passed (") and report.all_passed(one)
    assert not levels.question_passed(p1, {"P1": none.outcome()})
