"""Reports: the terminal report and ``grade-report.json`` in Gradescope's results.json schema."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from grader.course import catalog
from grader.course.levels import C_SHARE, Summary
from grader.engine.results import STATUS_TEXT, ExerciseResult, KeyPointResult
from grader.isolation import files

_STYLE = {"passed": "green", "not_verifiable": "yellow", "not_available": "dim", "not_graded": "dim"}
_UNGRADED = {"not_available", "not_graded"}  # no key point results to show
# Statuses that say the same thing about every key point of an exercise: one line is enough, and
# the failure is about the answer as a whole, not about an input.
WHOLE_EXERCISE = frozenset(
    {"not_implemented", "import_error", "missing", "crashed", "timeout", "oom", "refused", "identical"}
)


def feedback(
    ex: catalog.Exercise,
    kp: KeyPointResult,
    *,
    reveal_expected: bool = True,
    label: Callable[[catalog.KeyPoint], str] | None = None,
    whole_exercise: Collection[str] = (),
) -> str:
    """A failed key point as the learner reads it: what failed, what came back, the drawn input,
    what was checked, where to re-read and the course's lesson; ``kp`` as the reveal rule left it
    (:func:`grader.engine.attempts.shown`).

    ``reveal_expected=False`` (the classroom, Gradescope) leaves out the hidden checks' expected
    value and with it the hint: a hint, or a named mistake ("gives (1,) instead of (0,)"), can
    state it. ``label``: how the key point is named on the ``checks:`` line (default its claim).
    ``whole_exercise``: statuses about the answer as a whole, shown without a drawn input."""
    lines = [f"{STATUS_TEXT.get(kp.status, kp.status)}: {kp.message}".rstrip(": ")]
    if reveal_expected and kp.expected is not None:
        lines.append(f"expected: {kp.expected}")
    if kp.got is not None:
        lines.append(f"got:      {kp.got}")
    if reveal_expected and kp.hint:
        lines.append(f"hint:     {kp.hint}")
    if kp.example and kp.status not in whole_exercise:
        lines.append(kp.example.strip())
    if kp.traceback:
        lines.append(kp.traceback.rstrip())
    try:
        point = ex.key_point(kp.key_point)
        lines.append(f"checks:   {label(point) if label else point.claim}")
        lines.append(f"re-read:  {point.reread}")
        if kp.lesson:
            lines.append(f"course:   {kp.lesson}")
    except KeyError:
        pass
    return "\n".join(lines)


def _exercise_line(res: ExerciseResult) -> tuple[str, str]:
    if res.status in _UNGRADED:
        return "-", STATUS_TEXT[res.status]
    kps = [k for k in res.key_points if k.status != "not_verifiable"]
    passed = sum(k.passed for k in kps)
    statuses = {k.status for k in res.key_points if not k.passed and k.status != "not_verifiable"}
    unverified = sum(k.status == "not_verifiable" for k in res.key_points)
    if not statuses:
        text = "passed" + (f" ({unverified} not verified here)" if unverified else "")
    elif len(statuses) == 1 and statuses <= WHOLE_EXERCISE:
        text = STATUS_TEXT[statuses.pop()]
    else:
        text = ", ".join(sorted(STATUS_TEXT.get(s, s) for s in statuses))
    return f"{passed}/{len(kps)}", text


def graded_now(res: ExerciseResult) -> bool:
    """Graded in this run, not shown from an earlier one (make grade ONLY=... shows every exercise)."""
    return res.status not in _UNGRADED and not res.cached


def when(res: ExerciseResult) -> str:
    """The "graded" column of the report."""
    return f"now, {res.duration_s:.1f}s" if graded_now(res) else "earlier" if res.cached else ""


def pass_line_rule(summary: Summary) -> str:
    return f"A ≥ {summary.needed['A']}, B ≥ {summary.needed['B']}, each C ≥ {C_SHARE} of its key points"


def scores(summary: Summary) -> str:
    c_text = "  ".join(f"{k} {p}/{t}" for k, (p, t) in summary.c_points.items())
    return (
        f"R {summary.r_passed}/{summary.r_total} items · A {summary.a_passed}/{summary.sets['A'][1]} · "
        f"B {summary.b_passed}/{summary.sets['B'][1]} · C key points: {c_text}"
    )


def quiz_scores(summary: Summary) -> str:
    """The closed-book counts, from the quiz (None when the levels are counted from the code alone)."""
    q = summary.quiz
    c_text = "  ".join(f"{k} {p}/{t}" for k, (p, t) in q.c_points.items())
    who = (
        f"{q.learner}, {q.answers} answer{'s' if q.answers != 1 else ''}"
        if q.answers
        else f"{q.learner}, no answers yet: make quiz"
    )
    if q.source:  # self-study: the learner's own file, which the learner can edit
        who += f"; from {q.source}, your own editable file"
    return f"R {q.r[0]}/{q.r[1]} items · A {q.a[0]}/{q.a[1]} · B {q.b[0]}/{q.b[1]} · C key points: {c_text}  ({who})"


def mastery_lines(summary: Summary) -> list[str]:
    """The Mastery box's lines, plain text (the HTML report shows the same)."""
    if summary.quiz is None:
        lines = [
            f"Level: {summary.level}    pass line ({pass_line_rule(summary)}): "
            f"{'met' if summary.pass_line else 'not met'}",
            scores(summary),
        ]
    else:
        lines = [
            f"Level: {summary.level}    pass line ({pass_line_rule(summary)}, closed book): "
            f"{'met' if summary.pass_line else 'not met'}",
            f"Quiz (closed book: read, answering): {quiz_scores(summary)}",
            f"Code (P, X and the code exercises): {scores(summary)}; level from the code alone: "
            f"{summary.code_level}, its pass line {'met' if summary.code_pass_line else 'not met'}",
        ]
    if summary.next_level_needs:
        lines.append("For the next level: " + "; ".join(summary.next_level_needs))
    return lines


def print_report(
    results: dict[str, ExerciseResult], summary: Summary, console: Console | None = None, target: str = ""
) -> None:
    console = console or Console()
    for set_id in catalog.SETS:
        exs = [ex for ex in catalog.CATALOG if ex.set == set_id and ex.id in results]
        if not exs:
            continue
        passed, total = summary.sets[set_id]
        unit = "items" if set_id == "R" else "questions"
        table = Table(
            title=f"{set_id} — {catalog.SET_TITLES[set_id]}: {passed}/{total} {unit}",
            title_justify="left",
            expand=False,
        )
        for col in ("id", "exercise", "part", "key points", "status", "graded"):
            table.add_column(col, no_wrap=col != "exercise", min_width=24 if col == "exercise" else None)
        for ex in exs:
            res = results[ex.id]
            score, text = _exercise_line(res)
            style = "green" if text.startswith("passed") else _STYLE.get(res.status, "red")
            table.add_row(
                escape(ex.id), escape(ex.title), str(ex.part), score, f"[{style}]{escape(text)}[/]", escape(when(res))
            )
        console.print(table)

    failures = []
    for ex in catalog.CATALOG:
        res = results.get(ex.id)
        if res is None or res.status in _UNGRADED:
            continue
        bad = [k for k in res.key_points if not k.passed and k.status != "not_verifiable"]
        if not bad:
            continue
        if len({k.status for k in bad}) == 1 and bad[0].status in WHOLE_EXERCISE and len(bad) == len(res.key_points):
            failures.append(
                f"[bold]{escape(ex.id)}[/] {escape(STATUS_TEXT[bad[0].status])}: "
                f"{escape(str(bad[0].message))}\n  re-read: {escape(ex.key_points[0].reread)}"
            )
            continue
        for k in bad:
            body = escape(feedback(ex, k)).replace("\n", "\n  ")  # learner-derived text: never markup
            failures.append(f"[bold]{escape(ex.id)} · {escape(str(k.key_point))}[/] {body}")
    if failures:
        console.print(Panel("\n\n".join(failures), title="What to fix and re-read", title_align="left"))
    unverifiable = [
        f"{ex_id} · {k.key_point}" for ex_id, r in results.items() for k in r.key_points if k.status == "not_verifiable"
    ]
    if unverifiable:
        console.print(
            f"[yellow]Not verifiable on this machine (not counted, not verified):[/] {escape(', '.join(unverifiable))}"
        )
    missing = [ex_id for ex_id, r in results.items() if r.status == "not_available"]
    if missing:
        console.print(f"[dim]Not available yet ({len(missing)}): {escape(', '.join(missing))}[/]")
    lines = [escape(x) for x in mastery_lines(summary)]
    lines[0] = lines[0].replace(f"Level: {escape(summary.level)}", f"Level: [bold]{escape(summary.level)}[/]", 1)
    tail = "met" if summary.pass_line else "not met"
    lines[0] = lines[0][: lines[0].rindex(tail)] + (f"[green]{tail}[/]" if summary.pass_line else f"[red]{tail}[/]")
    body = "\n".join(lines)
    console.print(Panel(body, title=f"Mastery{' — ' + escape(target) if target else ''}", title_align="left"))


def gradescope_json(
    results: dict[str, ExerciseResult],
    summary: Summary,
    execution_time: float,
    *,
    reveal_expected: bool = True,
    visibility: str = "visible",
    gated: bool = False,
) -> dict:
    """Gradescope's results.json: one test per key point; level and pass line in extra_data.
    The Gradescope autograder leaves the hidden checks' expected values out (``reveal_expected``)
    and sets each test's ``visibility`` as built (grader/classroom/gradescope.py).

    What a failure shows follows the terminal's rule (grader.engine.attempts): ``gated`` when the
    results already went through :func:`attempts.gate` (``grader grade``: the learner's attempts
    and ``--reveal`` decided); otherwise a recall key point's expected value, hint and lesson are
    withheld here, whatever ``reveal_expected`` says (nothing counts attempts on this path)."""
    from grader.engine import attempts

    tests = []
    for ex in catalog.CATALOG:
        res = results.get(ex.id)
        if res is None:
            continue
        tags = list(dict.fromkeys([ex.set, f"part {ex.part}", ex.id]))  # R's set and id are both "R"
        if res.status in _UNGRADED:
            tests.append(
                {
                    "name": f"{ex.id} {ex.title}",
                    "score": 0,
                    "max_score": 0,
                    "output": STATUS_TEXT[res.status],
                    "tags": tags,
                    "visibility": visibility,
                }
            )
            continue
        for k in res.key_points:
            if not gated and not k.passed:
                k = attempts.shown(ex, k, count=None)
            counted = k.status != "not_verifiable"
            test = {
                "name": f"{ex.id} · {k.key_point}",
                "number": ex.id,
                "score": 1 if k.passed else 0,
                "max_score": 1 if counted else 0,
                "output": feedback(ex, k, reveal_expected=reveal_expected)
                if not k.passed
                else ex.key_point(k.key_point).claim
                if k.key_point in {p.id for p in ex.key_points}
                else "",
                "tags": tags,
                "visibility": visibility,
            }
            if counted:  # a 0/0 entry without a status shows neutral, not as a failure
                test["status"] = "passed" if k.passed else "failed"
            tests.append(test)
    return {
        "score": sum(t["score"] for t in tests),  # Gradescope has no top-level max_score: in extra_data
        "execution_time": round(execution_time, 2),
        "output": f"Level: {summary.level}; pass line {'met' if summary.pass_line else 'not met'}",
        "tests": tests,
        "extra_data": {
            "max_score": sum(t["max_score"] for t in tests),
            **summary.to_dict(),
            "exercises": {
                ex_id: {"status": r.status, "duration_s": r.duration_s, "note": r.note, "graded_now": graded_now(r)}
                for ex_id, r in results.items()
            },
        },
    }


def write_json(path: Path, data: dict) -> None:
    files.replace_file(path, json.dumps(data, indent=1, ensure_ascii=False).encode())  # a link there is replaced
