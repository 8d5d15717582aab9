"""Class analytics: what a class got right and wrong, for the instructor.

From a graded class (``grader batch`` here or on Ray, ``grader batch --collect`` of a batch
queue's results, or an nbgrader gradebook) it computes:

* the **pass rate of every key point** over the work handed in (a student who handed in nothing
  for that exercise is counted apart, as not submitted: a rate over everyone ranks who submitted,
  not what was hard; a key point not verifiable on the grading machine is left out, as in a
  student's own counts) and the most frequent way it failed;
* the **most frequent named misconceptions**: a failed key point whose feedback names the
  registered wrong answer the student's output matches (``misconception``, set by the engine:
  "your result is what you get if you ..."), counted per key point;
* the **level distribution** and how many met the pass line (the same rules as ``make grade``);
* the pass rate per course part;
* **similar answers**: each student's answer to each exercise against the reference and every
  classmate's (:func:`grader.engine.similarity.class_matches`: normalised, MOSS-style), its best
  match, score and matching lines, near copies marked. A report for the instructor to read, never
  a grade: nothing is zeroed.

:func:`write` puts them in a folder: ``keypoints.csv``, ``misconceptions.csv``, ``levels.csv``,
``parts.csv``, ``copies.csv`` and ``class-report.html`` (self-contained, charts as embedded PNG, no scripts:
it renders in a headless browser, ``scripts/check_report_renders.sh``).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from grader import i18n
from grader.course import catalog, levels
from grader.engine.results import status_text
from grader.i18n import N_, _, show

MISCONCEPTION_PREFIX = "your result "  # how the engine's named misconceptions begin
# Left out of a key point's rate: not verifiable here, and not submitted ("missing": counted apart).
UNCOUNTED = ("not_verifiable", "missing")


@dataclass
class ClassReport:
    students: list[str]
    key_points: list[dict]  # one row per catalog key point of the exercises graded
    misconceptions: list[dict]  # (exercise, key point, misconception) -> students, most frequent first
    levels: list[dict]  # level -> students, in the course's order, and the pass line
    parts: list[dict]  # course part -> key points passed / counted
    source: str = ""
    rows: list[dict] = field(default_factory=list)  # per-student level rows (levels.csv of grader batch)
    copies: list[dict] = field(default_factory=list)  # (student, exercise) -> best match (copies.csv)
    # (exercise, key point) -> its most frequent failing status and count: the page says it in its language


def misconception_of(kp: dict) -> str:
    """The named misconception of a failed key point's record, if the feedback has one, in the
    reader's language (a hint is recognised by its English, whatever language it was graded in)."""
    named = show(kp.get("misconception") or "").strip()
    if named:
        return named
    hint = kp.get("hint") or ""
    first = show(hint, "en").strip().splitlines()[:1]
    return show(hint).strip().splitlines()[0] if first and first[0].startswith(MISCONCEPTION_PREFIX) else ""


def records_from_jobs(job_results: list[dict]) -> list[dict]:
    """One record per (student, exercise, key point) from batch job results."""
    out = []
    for r in job_results:
        for kp in r["result"].get("key_points", []):
            out.append(
                {
                    "student": r["student"],
                    "exercise": r["exercise"],
                    "key_point": kp["key_point"],
                    "status": kp["status"],
                    "misconception": misconception_of(kp) if kp["status"] != "passed" else "",
                }
            )
    return out


NOT_COMPARED = N_("does not parse: not compared")
REFERENCE = N_("reference")  # copies.csv's best_match for the reference answer (a classmate's name otherwise)
COPIES_FIELDS = ["student", "exercise", "best_match", "score", "near_copy", "lines", "their_lines", "opaque", "note"]
# copies.csv's note where an answer builds the code it runs from data (grader.engine.similarity.opaque)
OPAQUE_CELL = N_("code built from data, not compared: lines {lines}")
OPAQUE_NOTE = N_("builds the code it runs from data (see opaque): its score cannot say whose that code is")


def copies(answers: dict[str, dict[str, bytes]], hidden: dict | None = None) -> list[dict]:
    """One row per student and exercise answered (``answers``: exercise id -> student -> source):
    the best match among the reference and the classmates, with its score and lines."""
    from grader.engine import similarity
    from grader.isolation import files

    out = []
    for ex in catalog.CATALOG:
        answered = {s: src for s, src in (answers.get(ex.id) or {}).items() if not _as_released(src, ex)}
        if not answered:
            continue
        try:
            stub = files.read_regular(catalog.ROOT / "exercises" / f"{ex.module}.py")
        except (OSError, files.Refused):
            stub = None
        best = similarity.class_matches(ex.module, answered, given=stub, helpers=(hidden or {}).get(ex.id))
        for student in sorted(answered):
            m = best.get(student)
            row = {"student": student, "exercise": ex.id}
            if m is None:
                out.append({**row, **dict.fromkeys(COPIES_FIELDS[2:], ""), "note": NOT_COMPARED})
                continue
            d = m.to_dict()
            out.append(
                {
                    **row,
                    "best_match": d["against"],
                    "score": d["score"],
                    "near_copy": similarity.near_copy(m),
                    "lines": d["lines"],
                    "their_lines": d["their_lines"],
                    "opaque": similarity.opaque_text(m.opaque),
                    "note": m.note or (OPAQUE_NOTE if m.opaque else ""),
                }
            )
    return out


def _as_released(source: bytes, ex: catalog.Exercise) -> bool:
    """An answer that is the stub as released (:func:`grader.classroom.notebooks.is_release_stub`):
    no one's work, left out of every class-wide comparison (the gradebook's path never had it)."""
    from grader.classroom import notebooks

    try:
        return notebooks.is_release_stub(source.decode("utf-8"), ex)
    except UnicodeDecodeError:
        return False


def _read_answers(paths: dict[str, dict[str, Path]], hidden: dict | None = None) -> dict[str, dict[str, bytes]]:
    """The answers' sources, read as the runner reads a learner's file (no link, capped); one
    that cannot be read is left out. ``hidden`` (exercise id -> student): filled with
    :func:`grader.engine.similarity.helpers_opaque` of each, read while the files are there."""
    from grader.engine import similarity
    from grader.isolation import files

    out: dict[str, dict[str, bytes]] = {}
    for ex_id, by_student in paths.items():
        for student, path in by_student.items():
            try:
                out.setdefault(ex_id, {})[student] = files.read_regular(path)
                if hidden is not None:
                    hidden.setdefault(ex_id, {})[student] = similarity.helpers_opaque(path)
            except (OSError, files.Refused):
                continue
    return out


def from_jobs(job_results: list[dict], source: str = "") -> ClassReport:
    from grader.classroom.batch import summarize_class

    rows = summarize_class(job_results)
    report = build(records_from_jobs(job_results), rows, source=source, graded={r["exercise"] for r in job_results})
    hidden: dict = {}
    report.copies = copies(_submitted_answers(job_results, hidden), hidden)
    return report


def _submitted_answers(job_results: list[dict], hidden: dict | None = None) -> dict[str, dict[str, bytes]]:
    """Each submission's answers as they were graded: gather()'d, a notebook's answer cells too
    (read as modules beside it, a class of notebooks had no copies compared at all)."""
    from grader.classroom.batch import gathered

    by_submission: dict[str, list[dict]] = {}
    for r in job_results:
        if r["result"].get("status") != "missing":
            by_submission.setdefault(r["submission"], []).append(r)
    out: dict[str, dict[str, bytes]] = {}
    for submission, jobs in sorted(by_submission.items()):
        try:
            with gathered(Path(submission)) as (copy, _notes):
                paths = {r["exercise"]: {r["student"]: copy / f"{catalog.get(r['exercise']).module}.py"} for r in jobs}
                for ex_id, by_student in _read_answers(paths, hidden).items():
                    out.setdefault(ex_id, {}).update(by_student)
        except OSError:  # gone since it was graded: nothing to compare
            continue
    return out


def from_gradebook(course_dir: str | Path) -> ClassReport:
    """The same analytics from an nbgrader course: scores from the gradebook; how each key point
    failed (an answer left as released: not implemented, as ``grader batch`` says) and the named
    misconceptions from the results GradeAnswerCells recorded beside it."""
    from grader.classroom import notebooks

    course = Path(course_dir).resolve()
    per_student = notebooks.gradebook_outcomes(course)
    recorded = _recorded(course)
    records, rows = [], []
    graded: set[str] = set()
    for student, (outcomes, _written) in sorted(per_student.items()):
        for ex_id, kps in outcomes.items():
            graded.add(ex_id)
            for kp_id, ok in kps.items():
                kp = recorded.get((student, ex_id, kp_id))
                records.append(
                    {
                        "student": student,
                        "exercise": ex_id,
                        "key_point": kp_id,
                        "status": "passed" if ok else "not_verifiable" if ok is None else _failed_as(kp),
                        "misconception": "" if ok or kp is None else _named(kp),
                    }
                )
        rows.append({"student": student, **levels.summarize(outcomes).row()})
    report = build(records, rows, source=str(course), graded=graded, students=sorted(per_student))
    hidden: dict = {}
    report.copies = copies(_read_answers(_gradebook_answers(course), hidden), hidden)
    return report


def _gradebook_answers(course: Path) -> dict[str, dict[str, Path]]:
    """The answer cells autograde wrote as modules: ``.grader/answers/<set>/<student>/<module>.py``."""
    from grader.classroom import roster

    modules = {ex.module: ex.id for ex in catalog.CATALOG}
    out: dict[str, dict[str, Path]] = {}
    for path in sorted((course / roster.PRIVATE / "answers").glob("*/*/*.py")):
        if path.stem in modules:
            out.setdefault(modules[path.stem], {})[path.parent.name] = path
    return out


def _recorded(course: Path) -> dict[tuple[str, str, str], object]:
    """(student, exercise, key point) -> the key point's result autograde recorded
    (``.grader/results/<set>/<student>.json``): how it failed (an answer cell left as released is
    "not implemented", as ``grader batch`` says) and its named misconception, which the students'
    verdicts leave out, since a named mistake can state the expected value."""
    from grader.classroom import roster

    out = {}
    for path in sorted((course / roster.PRIVATE / "results").glob("*/*.json")):
        for ex_id, res in roster.load_results(course, path.parent.name, path.stem).items():
            for kp in res.key_points:
                out[(path.stem, ex_id, kp.key_point)] = kp
    return out


def _failed_as(kp) -> str:
    """The status of a key point the gradebook scores as failed: the recorded one, unless that
    says otherwise than the gradebook (a grader scored it by hand)."""
    return kp.status if kp is not None and kp.status not in ("passed", "not_verifiable") else "failed"


def _named(kp) -> str:
    return misconception_of({"misconception": kp.misconception, "hint": kp.hint}) if kp.status != "passed" else ""


def build(
    records: list[dict],
    rows: list[dict],
    *,
    source: str = "",
    graded: set[str] | None = None,
    students: list[str] | None = None,
) -> ClassReport:
    students = students or sorted({r["student"] for r in records} | {r["student"] for r in rows})
    by_kp: dict[tuple[str, str], dict[str, dict]] = {}
    for rec in records:
        by_kp.setdefault((rec["exercise"], rec["key_point"]), {})[rec["student"]] = rec
    exs = [ex for ex in catalog.CATALOG if graded is None or ex.id in graded]
    kp_rows, parts = [], {p: [0, 0] for p in sorted(catalog.PART_TITLES)}
    for ex in exs:
        for kp in ex.key_points:
            got = by_kp.get((ex.id, kp.id), {})
            statuses = [got[s]["status"] if s in got else "missing" for s in students]
            counted = [s for s in statuses if s not in UNCOUNTED]
            passed = sum(s == "passed" for s in counted)
            fails = Counter(s for s in counted if s != "passed")
            kp_rows.append(
                {
                    "exercise": ex.id,
                    "set": ex.set,
                    "part": ex.part,
                    "key_point": kp.id,
                    "followup": kp.followup,
                    "claim": _(kp.claim),  # a text: in the language the CSV is written in
                    "students": len(counted),
                    "passed": passed,
                    "pass_rate": round(passed / len(counted), 4) if counted else None,
                    "not_verifiable": statuses.count("not_verifiable"),
                    "not_submitted": statuses.count("missing"),
                    "most_frequent_failure": _failure(*fails.most_common(1)[0]) if fails else "",
                }
            )
            parts[ex.part][0] += passed
            parts[ex.part][1] += len(counted)
    named = Counter(
        (r["exercise"], r["key_point"], r["misconception"])
        for r in records
        if r["status"] != "passed" and r.get("misconception")
    )
    mis_rows = [
        {
            "exercise": e,
            "key_point": k,
            "misconception": m,
            "students": n,
            "share_of_failures": round(
                n
                / max(
                    1,
                    sum(
                        1
                        for r in records
                        if r["exercise"] == e and r["key_point"] == k and r["status"] not in ("passed", *UNCOUNTED)
                    ),
                ),
                4,
            ),
        }
        for (e, k, m), n in sorted(named.items(), key=lambda item: (-item[1], item[0]))
    ]
    level_count = Counter(r["level"] for r in rows)
    level_rows = [{"level": lv, "students": level_count.get(lv, 0)} for lv in levels.LEVELS]
    level_rows.append(
        {"level": PASS_LINE_MET, "students": sum(r["pass_line"] == levels.PASS_LINE_VALUES[True] for r in rows)}
    )
    part_rows = [
        {
            "part": p,
            "title": _(catalog.PART_TITLES[p]),
            "key_points_passed": a,
            "key_points_counted": b,
            "pass_rate": round(a / b, 4) if b else None,
        }
        for p, (a, b) in parts.items()
        if b
    ]
    return ClassReport(students, kp_rows, mis_rows, level_rows, part_rows, source, rows)


def _failure(status: str, students: int) -> i18n.Text:
    """A status and how many had it, said again in the language of the page or CSV that shows it."""
    return _("{status} ({students})", status=status_text(status), students=students)


# ---------------------------------------------------------------- files
# The columns of each CSV, in the order written: the writers take them from here (a row with another
# key is refused by csv.DictWriter), and docs/classroom.md lists them from here (csv_columns).
KEYPOINT_FIELDS = [
    "exercise",
    "set",
    "part",
    "key_point",
    "followup",
    "claim",
    "students",
    "passed",
    "pass_rate",
    "not_verifiable",
    "not_submitted",
    "most_frequent_failure",
]
MISCONCEPTION_FIELDS = ["exercise", "key_point", "misconception", "students", "share_of_failures"]
LEVEL_FIELDS = ["level", "students"]
PART_FIELDS = ["part", "title", "key_points_passed", "key_points_counted", "pass_rate"]


REPORT_CSVS = {
    "keypoints.csv": KEYPOINT_FIELDS,
    "misconceptions.csv": MISCONCEPTION_FIELDS,
    "levels.csv": LEVEL_FIELDS,
    "parts.csv": PART_FIELDS,
    "copies.csv": COPIES_FIELDS,
}


def csv_columns() -> dict[str, list[str]]:
    """Every CSV the classroom and the class grading write -> its columns, as written."""
    from grader.classroom import batch, pipeline, roster

    return {
        "grades.csv (nbgrader export)": list(pipeline.EXPORT_COLUMNS),
        "mastery.csv (grader classroom mastery)": roster.mastery_columns(),
        "levels.csv (grader batch --out)": batch.level_columns(),
        **{f"class-report/{name}": list(fields) for name, fields in REPORT_CSVS.items()},
    }


COLUMNS_BEGIN, COLUMNS_END = "<!-- csv columns: analytics.columns_doc() -->", "<!-- end csv columns -->"


def columns_doc() -> str:
    """docs/classroom.md's list of every CSV column (tests/test_docs.py keeps the page equal to it)."""
    lines = [COLUMNS_BEGIN, "", "| file | columns |", "|---|---|"]
    lines += [
        f"| `{f.split(' ')[0]}`{f[len(f.split(' ')[0]) :]} | {', '.join(f'`{c}`' for c in cols)} |"
        for f, cols in csv_columns().items()
    ]
    return "\n".join([*lines, "", COLUMNS_END])


def _shown(row: dict) -> dict:
    """A row with its catalog's texts in the language written now (the report may be built in another)."""
    return {k: show(v) if isinstance(v, i18n.Text) else v for k, v in row.items()}


def _csv(rows: list[dict], path: Path, fields: list[str]) -> None:
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=fields)
    w.writeheader()
    w.writerows(map(_shown, rows))
    path.write_text(buf.getvalue(), encoding="utf-8")


def write(report: ClassReport, out_dir: str | Path) -> Path:
    """The CSVs and the HTML page in ``out_dir``; returns the page's path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in (
        ("keypoints.csv", report.key_points),
        ("misconceptions.csv", report.misconceptions),
        ("levels.csv", report.levels),
        ("parts.csv", report.parts),
        ("copies.csv", report.copies),
    ):
        _csv(rows, out / name, REPORT_CSVS[name])
    (out / "class.json").write_text(
        json.dumps(
            {
                "source": report.source,
                "students": report.students,
                "key_points": [_shown(r) for r in report.key_points],
                "misconceptions": report.misconceptions,
                "levels": report.levels,
                "parts": [_shown(r) for r in report.parts],
                "copies": report.copies,
            },
            indent=1,
        ),
        encoding="utf-8",
    )
    page = out / "class-report.html"
    page.write_text(render(report), encoding="utf-8")
    return page


# ---------------------------------------------------------------- the page
# In the language asked (``--lang``, as every report): the words through grader/i18n.py, looked up
# outside the f-strings (Babel extracts no call inside one), the charts as SVG whose words the
# browser draws in the page's fonts, Chinese included (grader/reports/html.py).
CSS = """
body{font-family:FONT_STACK;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
#no-cjk{border:2px solid #b45309;background:#fffbeb;padding:.6em .9em;border-radius:6px}
figure.chart{margin:0} figure.chart svg{max-width:100%;height:auto;overflow:visible}
figure.chart svg text{font-family:FONT_STACK!important}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ddd;padding:3px 7px;text-align:left;
vertical-align:top}th{background:#f4f4f5} img{max-width:100%} .num{text-align:right}
.bar{display:inline-block;height:.8em;background:#16a34a;vertical-align:middle}
.barbg{display:inline-block;width:120px;height:.8em;background:#fecaca;vertical-align:middle;margin-right:.4em}
.low{color:#b91c1c;font-weight:600} .small{font-size:.85em;color:#555}
"""
PASS_LINE_MET = "pass line met"  # the levels rows' key for it (levels.csv), not shown as such


def _rate(r: float | None) -> str:
    return "–" if r is None else f"{r:.0%}"


def _level_name(level: str) -> str:
    return levels.level_text(level) if level in levels.LEVELS else level


def _h(msgid: str) -> str:
    """``msgid`` translated and escaped, for the page."""
    return escape(_(msgid))


def _chart(fig) -> str:
    from grader.reports.html import _svg

    return f"<figure class='chart'>{_svg(fig)}</figure>"


def render(report: ClassReport) -> str:
    from grader.reports import html

    n = len(report.students)
    title = escape(_("Class report"))
    head = escape(
        _(
            "{n} students · {exercises} exercises · {key_points} key points",
            n=n,
            exercises=len({r["exercise"] for r in report.key_points}),
            key_points=len(report.key_points),
        )
    )
    css = CSS.replace("FONT_STACK", html.FONT_STACK)
    out = [
        f"<!doctype html><html lang='{html.HTML_LANG[i18n.current()]}'><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>{css}</style></head><body>",
        f"<p id='no-cjk' hidden lang='zh-CN'>{escape(html.NOTICE_ZH)}<br>"
        f"<span lang='en'>{escape(html.NOTICE_EN)}</span></p>",
        f"<h1>{title}</h1>",
        f"<p>{head} · {escape(report.source)}</p>",
    ]
    met = next((r["students"] for r in report.levels if r["level"] == PASS_LINE_MET), 0)
    counts = " · ".join(
        f"{escape(_level_name(r['level']))}: <b>{r['students']}</b>"
        for r in report.levels
        if r["level"] != PASS_LINE_MET
    )
    met_text = _("pass line met: {met} of {n}", met="\0", n=n).replace("\0", f"<b>{met}</b>")
    out.append("<h2>" + _h(N_("Levels")) + f"</h2><p>{counts} · {met_text}</p>")
    out.append(_chart(_levels_figure(report)))
    if report.parts:
        out.append("<h2>" + _h(N_("Key points passed per course part")) + "</h2>")
        out.append(_chart(_parts_figure(report)))
    out.append("<h2>" + _h(N_("Hardest key points")) + "</h2>")
    out.append(_chart(_hardest_figure(report)))
    out.append("<h2>" + _h(N_("Most frequent misconceptions")) + "</h2>")
    if report.misconceptions:
        columns = [_("students"), _("exercise · key point"), _("misconception"), _("of its failures")]
        out.append("<table><tr>" + "".join(f"<th>{escape(c)}</th>" for c in columns) + "</tr>")
        for m in report.misconceptions[:25]:
            out.append(
                f"<tr><td class='num'>{m['students']}</td><td>{m['exercise']} · {escape(m['key_point'])}</td>"
                f"<td>{escape(m['misconception'])}</td><td class='num'>{m['share_of_failures']:.0%}</td></tr>"
            )
        out.append("</table>")
    else:
        none = escape(_("No failed key point matched a registered wrong answer."))
        out.append(f"<p class='small'>{none}</p>")
    columns = [
        _("exercise"),
        _("key point"),
        _("pass rate"),
        _("passed (of those submitted)"),
        _("not submitted"),
        _("most frequent failure"),
    ]
    every = escape(_("Every key point"))
    out.append(f"<h2>{every}</h2><table><tr>" + "".join(f"<th>{escape(c)}</th>" for c in columns) + "</tr>")
    followup = escape(_(" (follow-up)"))
    for r in report.key_points:
        rate = r["pass_rate"]
        width = int(120 * (rate or 0))
        cls = " class='low'" if rate is not None and rate < 0.5 else ""
        bar = "" if rate is None else f"<span class='barbg'><span class='bar' style='width:{width}px'></span></span>"
        out.append(
            f"<tr><td>{r['exercise']}</td><td title='{escape(show(r['claim']))}'>{escape(r['key_point'])}"
            f"{followup if r['followup'] else ''}</td><td{cls}>{bar}{_rate(rate)}</td>"
            f"<td class='num'>{r['passed']}/{r['students']}</td><td class='num'>{r['not_submitted']}</td>"
            f"<td>{escape(show(r['most_frequent_failure']))}</td></tr>"
        )
    out.append("</table>")
    out += _copies_section(report)
    out.append(f"<script>{html.GLYPH_CHECK}</script></body></html>")
    return "\n".join(out)


def _copies_section(report: ClassReport) -> list[str]:
    """Students x exercises: each answer's best match, score and lines; near copies in red."""
    from grader.engine import similarity

    threshold = f"{similarity.THRESHOLD:.0%}"  # formatted apart: pybabel skips a call holding an f-string
    about = _(
        "Each answer against the reference and every classmate's, normalised (names, constants, imports, "
        "order, dead code); a near copy from {threshold}. Nothing here changes a grade: read the lines and decide.",
        threshold=threshold,
    )
    out = ["<h2>" + _h(N_("Similar answers")) + f"</h2><p class='small'>{escape(about)}</p>"]
    if not report.copies:
        return [*out, "<p class='small'>" + _h(N_("No answers to compare.")) + "</p>"]
    cells = {(c["student"], c["exercise"]): c for c in report.copies}
    exs = [ex.id for ex in catalog.CATALOG if any(c["exercise"] == ex.id for c in report.copies)]
    student = escape(_("student"))
    out.append(f"<table><tr><th>{student}</th>" + "".join(f"<th>{e}</th>" for e in exs) + "</tr>")
    for who in sorted({c["student"] for c in report.copies}):
        row = [f"<tr><td>{escape(who)}</td>"]
        for e in exs:
            c = cells.get((who, e))
            if c is None or c["score"] == "" or (c["note"] and not c.get("opaque")):
                row.append(f"<td class='small'>{escape(_(c['note'])) if c else '–'}</td>")
                continue
            cls = " class='low'" if c["near_copy"] else ""
            lines = (
                f"<br><span class='small'>{escape(c['lines'])} ~ {escape(c['their_lines'])}</span>"
                if c["lines"]
                else ""
            )
            if c.get("opaque"):  # never a silent 0%: the lines that build the code it runs
                cls = " class='low'"
                lines += "<br><span class='small'>" + escape(_(OPAQUE_CELL, lines=c["opaque"])) + "</span>"
            match = _(REFERENCE) if c["best_match"] == REFERENCE else c["best_match"]
            row.append(f"<td{cls}>{escape(match)} {c['score']:.0%}{lines}</td>")
        out.append("".join(row) + "</tr>")
    out.append("</table>")
    return out


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _levels_figure(report: ClassReport):
    plt = _plt()
    data = [r for r in report.levels if r["level"] != PASS_LINE_MET]
    fig, ax = plt.subplots(figsize=(6, 2.6), layout="constrained")
    colors = {"none": "#d4d4d4", "read": "#93c5fd", "mastered": "#4ade80", "can-teach": "#fbbf24"}
    ax.bar(
        [_level_name(r["level"]) for r in data],
        [r["students"] for r in data],
        color=[colors.get(r["level"], "#888") for r in data],
    )
    ax.set_ylabel(_("students"))
    ax.set_title(_("Level distribution"))
    ax.yaxis.get_major_locator().set_params(integer=True)
    return fig


def _parts_figure(report: ClassReport):
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(report.parts) + 1), layout="constrained")
    labels = [f"{r['part']}. {catalog.part_title(r['part'])}" for r in report.parts]
    ax.barh(labels, [100 * (r["pass_rate"] or 0) for r in report.parts], color="#16a34a")
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel(_("% of key points passed, across the class"))
    return fig


def _hardest_figure(report: ClassReport, n: int = 15):
    plt = _plt()
    rated = sorted(
        (r for r in report.key_points if r["pass_rate"] is not None),
        key=lambda r: (r["pass_rate"], r["exercise"], r["key_point"]),
    )[:n]
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * max(1, len(rated)) + 1), layout="constrained")
    ax.barh(
        [f"{r['exercise']} · {r['key_point']}" for r in rated], [100 * r["pass_rate"] for r in rated], color="#dc2626"
    )
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel(_("% of the work handed in that passed"))
    ax.tick_params(axis="y", labelsize=8)
    return fig
