"""Reports: the terminal report and ``grade-report.json`` in Gradescope's results.json schema."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from grader.course import catalog
from grader.course.levels import C_SHARE, PASS_LINE_VALUES, Summary, level_text
from grader.course.tex import plain
from grader.engine.results import ExerciseResult, KeyPointResult, status_text
from grader.i18n import N_, _, show
from grader.isolation import files

_STYLE = {"passed": "green", "not_verifiable": "yellow", "not_available": "dim", "not_graded": "dim"}
_UNGRADED = {"not_available", "not_graded"}  # no key point results to show
# Statuses that say the same thing about every key point of an exercise: one line is enough, and
# the failure is about the answer as a whole, not about an input.
WHOLE_EXERCISE = frozenset(
    {"not_implemented", "import_error", "missing", "crashed", "timeout", "oom", "refused", "identical"}
)
# Of those, the ones the course cannot help with (a syntax error, a dead process, a file not taken):
# their feedback points to no course section to re-read, and quotes no lesson.
NOT_THE_COURSE = frozenset({"import_error", "missing", "crashed", "refused"})


def tag(text: str) -> str:
    """A feedback line's label in the current language, padded so that the values line up
    (``"got:"`` -> ``"got:      "``; Chinese characters take two columns)."""
    text = _(text)
    return text + " " * max(1, 10 - cell_len(text))


def met(ok: bool | str) -> str:
    """The pass line's value (True / False, or a class CSV's "met" / "not met") in the current language."""
    return _(ok if isinstance(ok, str) else PASS_LINE_VALUES[bool(ok)])


def said(text) -> str:
    """A recorded text as a learner reads it: in their language, without Hypothesis's own wording
    ("Failing test case: test_x(...)", reproduction advice), which can ride on any exception."""
    from grader.engine.misconceptions import without_hypothesis

    return without_hypothesis(show(text))


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
    lines = [status_line(kp)]
    if reveal_expected and kp.expected is not None:
        lines.append(tag(N_("expected:")) + said(kp.expected))
    if kp.got is not None:
        lines.append(tag(N_("got:")) + said(kp.got))
    if reveal_expected and kp.hint:
        lines.append(tag(N_("hint:")) + said(kp.hint))
    if kp.example and kp.status not in whole_exercise:
        lines.append(said(kp.example).strip())
    if kp.traceback:
        lines.append(said(kp.traceback).rstrip())
    try:
        point = ex.key_point(kp.key_point)
        lines.append(tag(N_("checks:")) + (label(point) if label else _(point.claim)))
        lines += reread(point, kp.status)
        if kp.lesson and kp.status not in NOT_THE_COURSE:  # the reveal rule blanks a lesson whole: the catalog's
            lines.append(tag(N_("course:")) + plain(point.lesson_text()))
    except KeyError:
        pass
    return "\n".join(lines)


def reread(point: catalog.KeyPoint, status: str) -> list[str]:
    """The "re-read:" line of a failure with ``status``; none where the course is not the problem."""
    return [] if status in NOT_THE_COURSE else [tag(N_("re-read:")) + point.reread_text()]


def _failing(res: ExerciseResult) -> set[str]:
    return {k.status for k in res.key_points if not k.passed and k.status != "not_verifiable"}


def all_passed(res: ExerciseResult) -> bool:
    """Graded, at least one key point verified here, and every one verified passed (green): an
    exercise of which nothing could be verified here passed nothing (levels.question_passed)."""
    verified = any(k.status != "not_verifiable" for k in res.key_points)
    return res.status not in _UNGRADED and verified and not _failing(res)


def _exercise_line(res: ExerciseResult) -> tuple[str, str]:
    if res.status in _UNGRADED:
        return "-", status_text(res.status)
    kps = [k for k in res.key_points if k.status != "not_verifiable"]
    passed = sum(k.passed for k in kps)
    statuses = _failing(res)
    unverified = sum(k.status == "not_verifiable" for k in res.key_points)
    if not kps and unverified:
        text = status_text("not_verifiable")
    elif not statuses:
        text = _("passed ({n} not verified here)", n=unverified) if unverified else _("passed")
    elif len(statuses) == 1 and statuses <= WHOLE_EXERCISE:
        text = status_text(statuses.pop())
    else:
        text = ", ".join(sorted(status_text(s) for s in statuses))
    return f"{passed}/{len(kps)}", text


# The report table's columns (the terminal and grade-report.html).
COLUMNS = (N_("id"), N_("exercise"), N_("part"), N_("key points"), N_("status"), N_("graded"))


def set_heading(set_id: str, passed: int, total: int) -> str:
    """A set's heading: "A — <title>: 3/10 questions" (R counts items)."""
    title = _(catalog.SET_TITLES[set_id])
    if set_id == "R":
        return _("{set} — {title}: {passed}/{total} items", set=set_id, title=title, passed=passed, total=total)
    return _("{set} — {title}: {passed}/{total} questions", set=set_id, title=title, passed=passed, total=total)


def graded_now(res: ExerciseResult) -> bool:
    """Graded in this run, not shown from an earlier one (make grade ONLY=... shows every exercise)."""
    return res.status not in _UNGRADED and not res.cached


def status_line(kp) -> str:
    """A key point's status and what came with it, punctuated in the reader's language."""
    message = said(kp.message)
    return (
        _("{status}: {message}", status=status_text(kp.status), message=message) if message else status_text(kp.status)
    )


def outside(results: dict[str, ExerciseResult], only: Collection[str] | None) -> list[str]:
    """The exercises ``grader grade --only`` did not choose that still fail, from earlier runs: the
    report lists only the chosen ones' failures and names these apart."""
    return [i for i, r in results.items() if only and i not in only and r.status not in _UNGRADED and _failing(r)]


def covers(only: Collection[str] | None) -> str:
    """What the level box counts when ``--only`` chose some exercises (every exercise's latest result)."""
    if not only:
        return ""
    return _(
        "Counted over every exercise's latest result: {ids} chosen now (--only), the others as earlier runs left them",
        ids=", ".join(only),
    )


def earlier_failures(results: dict[str, ExerciseResult], only: Collection[str] | None) -> str:
    ids = outside(results, only)
    if not ids:
        return ""
    return _(
        "Still failing in earlier runs, not graded now (outside --only): {ids}; a grade without --only lists "
        "what to fix there",
        ids=", ".join(ids),
    )


def when(res: ExerciseResult) -> str:
    """The "graded" column of the report."""
    if graded_now(res):
        return _("now, {seconds}s", seconds=format(res.duration_s, ".1f"))
    return _("earlier") if res.cached else ""


def _ratio(got: object, total: object) -> str:
    return f"{got}/{total}"


def pass_line_rule(summary: Summary) -> str:
    return _(
        "A ≥ {a}, B ≥ {b}, each C ≥ {share} of its key points",
        a=summary.needed["A"],
        b=summary.needed["B"],
        share=C_SHARE,
    )


def scores(summary: Summary) -> str:
    c_text = "  ".join(f"{k} {p}/{t}" for k, (p, t) in summary.c_points.items())
    return _(
        "R {r} items · A {a} · B {b} · C key points (follow-ups apart): {c}",
        r=_ratio(summary.r_passed, summary.r_total),
        a=_ratio(summary.a_passed, summary.sets["A"][1]),
        b=_ratio(summary.b_passed, summary.sets["B"][1]),
        c=c_text,
    )


def quiz_scores(summary: Summary) -> str:
    """The closed-book counts, from the quiz (None when the levels are counted from the code alone)."""
    q = summary.quiz
    c_text = "  ".join(f"{k} {p}/{t}" for k, (p, t) in q.c_points.items())
    if not q.answers:
        who = _("{learner}, no answers yet: make quiz", learner=q.learner)
    elif q.answers == 1:
        who = _("{learner}, 1 answer", learner=q.learner)
    else:
        who = _("{learner}, {n} answers", learner=q.learner, n=q.answers)
    if q.source:  # self-study: the learner's own file, which the learner can edit
        who += _("; from {source}, your own editable file", source=q.source)
    counts = _(
        "R {r} items · A {a} · B {b} · C key points (follow-ups apart): {c}",
        r=_ratio(q.r[0], q.r[1]),
        a=_ratio(q.a[0], q.a[1]),
        b=_ratio(q.b[0], q.b[1]),
        c=c_text,
    )
    return _("{counts}  ({who})", counts=counts, who=who)


def mastery_lines(summary: Summary, markup: bool = False, only: Collection[str] | None = None) -> list[str]:
    """The Mastery box's lines, plain text, or rich markup (the level bold, the pass line coloured);
    ``only``: the exercises this run chose (the box says what it counts)."""
    esc = escape if markup else str
    level, passed = esc(level_text(summary.level)), esc(met(summary.pass_line))
    if markup:
        level = f"[bold]{level}[/]"
        passed = f"[{'green' if summary.pass_line else 'red'}]{passed}[/]"
    # the fields carry their own markup; the messages themselves have no square brackets to escape
    rule = esc(pass_line_rule(summary))
    if summary.quiz is None:
        lines = [_("Level: {level}    pass line ({rule}): {met}", level=level, rule=rule, met=passed)]
    else:
        lines = [_("Level: {level}    pass line ({rule}, closed book): {met}", level=level, rule=rule, met=passed)]
    if summary.quiz is None:
        lines.append(esc(scores(summary)))
    else:
        lines += [
            esc(_("Quiz (closed book: read, answering): {scores}", scores=quiz_scores(summary))),
            esc(
                _(
                    "Code (P, X and the code exercises): {scores}; level from the code alone: {level}, "
                    "its pass line {met}",
                    scores=scores(summary),
                    level=_(summary.code_level),
                    met=met(summary.code_pass_line),
                )
            ),
        ]
    if summary.next_level_needs:
        lines.append(esc(_("For the next level: {needs}", needs="; ".join(summary.next_level_needs_text()))))
    if only:
        lines.append(esc(covers(only)))
    return lines


# Where output is not a terminal (a file, a pipe, CI's log) rich would assume 80 columns and cut the
# tables' last cells ("now, 15.0" without its "s"); a terminal keeps its own width.
FILE_WIDTH = 160


def new_console(**kwargs) -> Console:
    """The console every report prints to: its terminal's width, or :data:`FILE_WIDTH` when it is no
    terminal (a COLUMNS the user set still wins)."""
    console = Console(**kwargs)
    if not console.is_terminal and "COLUMNS" not in os.environ and "width" not in kwargs:
        console = Console(width=FILE_WIDTH, **kwargs)
    return console


def print_report(
    results: dict[str, ExerciseResult],
    summary: Summary,
    console: Console | None = None,
    target: str = "",
    only: Collection[str] | None = None,
) -> None:
    """``only``: the exercises ``--only`` chose; the others' failures, from earlier runs, are named apart."""
    console = console or new_console()
    for set_id in catalog.SETS:
        exs = [ex for ex in catalog.CATALOG if ex.set == set_id and ex.id in results]
        if not exs:
            continue
        passed, total = summary.sets[set_id]
        table = Table(title=escape(set_heading(set_id, passed, total)), title_justify="left", expand=False)
        for i, col in enumerate(COLUMNS):
            table.add_column(_(col), no_wrap=i != 1, min_width=24 if i == 1 else None)  # 1: the exercise's title
        for ex in exs:
            res = results[ex.id]
            score, text = _exercise_line(res)
            style = "green" if all_passed(res) else _STYLE.get(res.status, "red")
            table.add_row(
                escape(ex.id),
                escape(_(ex.title)),
                str(ex.part),
                score,
                f"[{style}]{escape(text)}[/]",
                escape(when(res)),
            )
        console.print(table)

    failures, apart = [], set(outside(results, only))
    for ex in catalog.CATALOG:
        res = results.get(ex.id)
        if res is None or res.status in _UNGRADED or ex.id in apart:
            continue
        bad = [k for k in res.key_points if not k.passed and k.status != "not_verifiable"]
        if not bad:
            continue
        if len({k.status for k in bad}) == 1 and bad[0].status in WHOLE_EXERCISE and len(bad) == len(res.key_points):
            lines = [status_line(bad[0]), *reread(ex.key_points[0], bad[0].status)]
            failures.append(f"[bold]{escape(ex.id)}[/] " + escape("\n  ".join(lines)))
            continue
        for k in bad:
            body = escape(feedback(ex, k)).replace("\n", "\n  ")  # learner-derived text: never markup
            failures.append(f"[bold]{escape(ex.id)} · {escape(str(k.key_point))}[/] {body}")
    if failures:
        console.print(Panel("\n\n".join(failures), title=escape(_("What to fix and re-read")), title_align="left"))
    if earlier_failures(results, only):
        console.print(f"[yellow]{escape(earlier_failures(results, only))}[/]")
    copies = [near_copy_line(r) for r in results.values() if r.near_copy]
    if copies:
        console.print(f"[yellow]{escape(_(NEAR_COPIES))}[/]\n  " + "\n  ".join(map(escape, copies)))
    hidden = [opaque_line(r) for r in results.values() if r.opaque]
    if hidden:
        console.print(f"[yellow]{escape(_(OPAQUE))}[/]\n  " + "\n  ".join(map(escape, hidden)))
    unverifiable = [
        f"{ex_id} · {k.key_point}" for ex_id, r in results.items() for k in r.key_points if k.status == "not_verifiable"
    ]
    if unverifiable:
        what = _("Not verifiable on this machine (not counted, not verified):")
        console.print(f"[yellow]{escape(what)}[/] {escape(', '.join(unverifiable))}")
    missing = [ex_id for ex_id, r in results.items() if r.status == "not_available"]
    if missing:
        text = _("Not available yet ({n}): {ids}", n=len(missing), ids=", ".join(missing))
        console.print(f"[dim]{escape(text)}[/]")
    if sandbox_line(results):
        console.print(f"[dim]{escape(sandbox_line(results))}[/]")
    title = _("Mastery — {target}", target=target) if target else _("Mastery")
    console.print(
        Panel("\n".join(mastery_lines(summary, markup=True, only=only)), title=escape(title), title_align="left")
    )


# Said to the learner, who may well have written it alone: a short answer to a tightly asked question
# looks like the reference. Where the reference's matching lines are is said only to an instructor.
NEAR_COPIES = N_(
    "Close to the reference answer (graded as usual; short answers to a tightly asked question often look "
    "alike, and a class's instructor is shown these scores):"
)


# An answer that builds the code it runs from data (exec of a value, a marshal blob, an import by a
# built name...): the comparison reads the code written as code, so its score says nothing of that.
OPAQUE = N_(
    "Code built at run time from data, which the comparison with the reference cannot read (graded as "
    "usual; a class's instructor is shown these lines):"
)


def opaque_line(res: ExerciseResult) -> str:
    """Where one exercise's module builds the code it runs, and the score that says nothing of it."""
    from grader.engine import similarity

    m = res.similarity
    score = f"{m.get('score', 0.0):.0%}"  # formatted apart: pybabel skips a call holding an f-string
    return _(
        "{id}: lines {lines}; its {score} like the reference answer covers only the code written as code",
        id=res.exercise,
        lines=similarity.opaque_text(m.get("opaque", ())),
        score=score,
    )


def near_copy_line(res: ExerciseResult, instructor: bool = False) -> str:
    """One near copy as a line: the score and the learner's matching lines; for an instructor, the
    reference's lines too."""
    m = res.similarity
    score = f"{m['score']:.0%}"  # formatted apart: pybabel skips a call holding an f-string
    if not instructor:
        return _(
            "{id}: {score} like the reference answer (your lines {lines})",
            id=res.exercise,
            score=score,
            lines=m.get("lines", ""),
        )
    module = catalog.get(res.exercise).module
    return _(
        "{id}: {score} like the reference answer: your lines {lines}, solutions/{module}.py lines {their_lines}",
        id=res.exercise,
        score=score,
        lines=m.get("lines", ""),
        module=module,
        their_lines=m.get("their_lines", ""),
    )


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
    withheld here by the same :func:`attempts.gate`, whatever ``reveal_expected`` says (nothing
    counts attempts on this path)."""
    from grader.engine import attempts

    if not gated:
        results = attempts.gate(results, None)
    tests = []
    for ex in catalog.CATALOG:
        res = results.get(ex.id)
        if res is None:
            continue
        tags = list(dict.fromkeys([ex.set, f"part {ex.part}", ex.id]))  # R's set and id are both "R"
        if res.status in _UNGRADED:
            tests.append(
                {
                    "name": f"{ex.id} {ex.title_text()}",  # Gradescope shows it to the student
                    "score": 0,
                    "max_score": 0,
                    "output": status_text(res.status),
                    "tags": tags,
                    "visibility": visibility,
                }
            )
            continue
        for k in res.key_points:
            counted = k.status != "not_verifiable"
            test = {
                "name": f"{ex.id} · {k.key_point}",
                "number": ex.id,
                "score": 1 if k.passed else 0,
                "max_score": 1 if counted else 0,
                "output": feedback(ex, k, reveal_expected=reveal_expected)
                if not k.passed
                else _(ex.key_point(k.key_point).claim)
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
        "output": _("Level: {level}; pass line {met}", level=level_text(summary.level), met=met(summary.pass_line)),
        "tests": tests,
        "extra_data": {
            "max_score": sum(t["max_score"] for t in tests),
            **summary.to_dict(),
            "exercises": {
                ex_id: {
                    "status": r.status,
                    "duration_s": r.duration_s,
                    "note": show(r.note),
                    "graded_now": graded_now(r),
                    "similarity": r.similarity,
                    "isolation": r.isolation,
                }
                for ex_id, r in results.items()
            },
            "isolation": applied_isolation(results),
        },
    }


def applied_isolation(results: dict[str, ExerciseResult]) -> str:
    """The weakest sandbox any learner process of these results got, as each measured it in its
    own setup (grader.isolation.sandbox.LEVELS); "" where no learner code ran."""
    from grader.isolation.sandbox import weakest

    return weakest(r.isolation for r in results.values())


def sandbox_line(results: dict[str, ExerciseResult]) -> str:
    level = applied_isolation(results)
    return _("Sandbox of the learner's code, as applied: {level}", level=_(level)) if level else ""


def write_json(path: Path, data: dict) -> None:
    files.replace_file(path, json.dumps(data, indent=1, ensure_ascii=False).encode())  # a link there is replaced
