"""Command line: ``grader grade | list | quiz | classroom | batch | job | gradescope``.

Exit status of ``grade``: 0 whenever grading ran, whatever the score; 2 when the grader
itself could not run (bad target, unknown id), with a message saying why.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from grader import i18n
from grader.course import catalog, levels
from grader.engine import attempts, runner
from grader.engine.results import ExerciseResult
from grader.i18n import N_, _
from grader.reports import terminal as report


def _cmd_grade(args: argparse.Namespace, console: Console) -> int:
    try:
        folder = runner.resolve_target(args.target)
        wanted = ",".join([args.only or "", *args.ids]).replace(" ", ",")
        only = [catalog.get(i).id for i in wanted.split(",") if i] or None
        overrides = dict(o.split("=", 1) for o in args.override)
        for ex_id in overrides:
            catalog.get(ex_id)
    except (FileNotFoundError, KeyError, ValueError) as exc:
        why = _("grader: cannot grade: {why}", why=exc.args[0] if exc.args else exc)
        _say(console, why, "red")
        return 2
    start = time.monotonic()
    todo = [ex for ex in catalog.CATALOG if only is None or ex.id in only]
    with Progress(
        TextColumn("[bold]" + escape(_("grading")) + "[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(str(folder), total=len(todo))

        unchanged = _(" (unchanged)")

        def advance(res):
            progress.advance(task)
            if res.status != "not_available":
                progress.console.print(
                    f"  {escape(format(res.exercise, '<4'))} "
                    f"{escape(format(report._exercise_line(res)[1], '<22'))} "
                    f"{escape(format(res.duration_s, '5.1f'))}s"
                    f"{escape(unchanged if res.cached else '')}",
                    highlight=False,
                )

        # The learner's record: the report shows every exercise's latest result, whatever was graded now.
        try:
            results = runner.grade(
                folder,
                only=only,
                overrides=overrides,
                jobs=args.jobs,
                on_result=advance,
                incremental=True,
                fresh=args.fresh,
            )
        except KeyboardInterrupt:  # Ctrl-C: the exercises graded so far are kept (the cache); no traceback
            progress.stop()
            _say(
                console,
                _("interrupted; the exercises graded so far are kept: rerun the same command to go on"),
                "yellow",
            )
            return 130
    quiz = None
    if not args.no_quiz:
        from grader.quiz import progress as quiz_progress

        quiz = quiz_progress.counts_for(args.learner)
    summary = levels.summarize({k: r.outcome() for k, r in results.items() if r.available}, quiz=quiz)
    tries = attempts.Attempts(folder)
    # an --override probe grades another file: it is not an answer of the learner's, no attempt used
    overridden = {catalog.get(k).id for k in overrides}
    tries.record({k: r for k, r in results.items() if k not in overridden})
    results = attempts.gate(results, tries, reveal=args.reveal)  # what the feedback may show
    written = []  # the files first: the terminal report can never cost them
    if args.json:
        report.write_json(
            Path(args.json), report.gradescope_json(results, summary, time.monotonic() - start, gated=True)
        )  # attempts.gate'd above
        written.append(args.json)
    if args.html:
        from grader.isolation import files
        from grader.reports import html as html_report

        files.replace_file(args.html, html_report.render(results, summary, str(args.target), only=only).encode())
        written.append(args.html)
    report.print_report(results, summary, console, target=str(args.target), only=only)
    if written:
        wrote = _("wrote {files}", files=", ".join(written))
        _say(console, wrote, "dim")
    return 0


# The commands that grade others' work: a file-system wall is required there, root or not.
UNTRUSTED_COMMANDS = ("classroom", "batch", "job", "gradescope")


def _wall_policy(args: argparse.Namespace) -> None:
    """Set, for this process and every one it starts, whether grading may go on without a
    file-system wall (grader.isolation.sandbox.wall_required): never for others' work unless
    --allow-unsandboxed; a learner's own `grader grade`, not as root, is not refused."""
    import os

    from grader.isolation import sandbox

    if args.command in UNTRUSTED_COMMANDS:
        sandbox.grading_others_work()
    if getattr(args, "allow_unsandboxed", False):
        os.environ[sandbox.ALLOW_UNSANDBOXED] = "1"


def _say(console: Console, text: str, style: str = "") -> None:
    """One line of the CLI's own, already translated; never markup (paths and names in it are data).
    Never wrapped by rich: a path cut by a newline cannot be pasted back (the terminal wraps it)."""
    console.print(f"[{style}]{escape(text)}[/]" if style else escape(text), highlight=False, soft_wrap=True)


def _cmd_list(args: argparse.Namespace, console: Console) -> int:
    for ex in catalog.CATALOG:
        state = _("available") if ex.available else _("not available yet")
        part = _("part {n}", n=ex.part)
        console.print(
            f"[bold]{escape(format(ex.id, '<4'))}[/] {escape(format(ex.module, '<28'))} {escape(part)}  "
            f"{escape(format(state, '<18'))} {escape(_(ex.title))}",
            highlight=False,
        )
        if args.verbose:
            for kp in ex.key_points:
                tag = (
                    (_(" (follow-up)") if kp.followup else "")
                    + (" (GPU)" if kp.needs_gpu else "")
                    + (_(" (recall)") if kp.recall else "")
                )
                console.print(f"       {escape(str(kp.id))}{escape(tag)}: {escape(_(kp.claim))}", highlight=False)
    return 0


def _print_levels(rows: list[dict], console: Console) -> None:
    size = {s: len(exs) for s, exs in levels.by_set().items()}
    pass_line = escape(_("pass line"))
    for row in rows:
        console.print(
            f"{escape(format(row['student'], '<20'))} {escape(format(_(row['level']), '<10'))} "
            f"{pass_line} {escape(format(report.met(row['pass_line']), '<8'))}"
            f" R {escape(str(row['R']))}  A {escape(str(row['A']))}/{escape(str(size['A']))}  B "
            f"{escape(str(row['B']))}/{escape(str(size['B']))}",
            highlight=False,
        )


# The extras a command needs beyond grading (pyproject.toml): (module, extra, what in Chinese, in English).
EXTRAS = {
    "classroom": (
        "nbgrader",
        "classroom",
        "nbgrader 课程（grader classroom）",
        "an nbgrader course (grader classroom)",
    ),
    "ray": ("ray", "cluster", "Ray 集群上批改（grader batch --ray）", "grading on a Ray cluster (grader batch --ray)"),
}


def _missing_extra(name: str, console: Console) -> bool:
    """True, after saying how to install it, when the extra ``name`` needs is not installed."""
    import importlib.util

    module, extra, zh, en = EXTRAS[name]
    if importlib.util.find_spec(module) is not None:
        return False
    how = f"make deps-{extra}  (.venv/bin/pip install -c requirements.lock -e '.[{extra}]')"
    console.print(f"[red]grader: {escape(zh)}需要 {module}，默认安装不含它。安装：{escape(how)}[/]", highlight=False)
    console.print(
        f"[red]grader: {escape(en)} needs {module}, which the default install leaves out. Install it: {escape(how)}[/]",
        highlight=False,
    )
    return True


def _cmd_classroom(args: argparse.Namespace, console: Console) -> int:
    if _missing_extra("classroom", console):
        return 2
    from grader import classroom
    from grader.classroom import manifest

    if args.action in ("analytics", "mastery") and not args.lang:
        # the course's own language (the one it was built with), not the locale's
        from grader.classroom import notebooks

        i18n.use(notebooks.course_language(args.course_dir) or i18n.current())
    if args.action == "analytics":
        from grader.classroom import analytics

        course = Path(args.course_dir)
        if not (course / "gradebook.db").exists():
            _say(console, _("grader: no gradebook.db in {course}: run nbgrader autograde first", course=course), "red")
            return 2
        out = Path(args.out or course / "class-report")
        class_report = analytics.from_gradebook(course)
        page = analytics.write(class_report, out)
        _say(console, _("wrote {page} and its CSVs", page=page), "dim")
        _say_copies(class_report, console)
        return 0
    if args.action == "build":
        only = args.only.split(",") if args.only else None
        names = classroom.build_course(args.course_dir, only=only, course_id=args.course_id)
        built = _(
            "built {course}: source notebooks for {names}, nbgrader_config.py and the manifest of the grader's "
            "files ({manifest})",
            course=args.course_dir,
            names=", ".join(names),
            manifest=manifest.MANIFEST,
        )
        _say(console, built)
        _say(
            console, _("next: cd into it, then `nbgrader generate_assignment <name>` for each (see docs/classroom.md)")
        )
        return 0
    course = Path(args.course_dir)
    if args.action == "seal":
        if not (course / "nbgrader_config.py").exists():
            _say(console, _("grader: {course} is not a course built by `grader classroom build`", course=course), "red")
            return 2
        path = manifest.write(course)
        _say(console, _("sealed the grader's files as they are now: {path}", path=path))
        return 0
    if not (course / "gradebook.db").exists():
        _say(console, _("grader: no gradebook.db in {course}: run nbgrader autograde first", course=course), "red")
        return 2
    rows = classroom.write_mastery(course, course / "mastery.csv", course / "mastery.json")
    pass_line = escape(_("pass line"))
    for row in rows:
        sets = "  ".join(f"{s} {row[s] if '/' in row[s] else '-'}" for s in catalog.SETS)
        met = escape(report.met(row["pass_line"]))
        console.print(
            f"{escape(str(row['student'])):<16} {escape(_(row['level'])):<10} {pass_line} {met:<8} {sets}",
            highlight=False,
        )
    legend = _(
        "-: not submitted or not graded (mastery.csv says which); wrote {csv} and {json}",
        csv=course / "mastery.csv",
        json=course / "mastery.json",
    )
    _say(console, legend, "dim")
    return 0


def _say_copies(class_report, console: Console) -> None:
    """How many answers are near copies (of the reference or a classmate's): the instructor reads them."""
    near = sum(c["near_copy"] is True for c in class_report.copies)
    if near:
        _say(
            console,
            _("{n} answer(s) are near copies of the reference or of a classmate's: see copies.csv", n=near),
            "yellow",
        )
    opaque = sum(bool(c.get("opaque")) for c in class_report.copies)
    if opaque:
        _say(
            console,
            _(
                "{n} answer(s) build the code they run from data, which the comparison cannot read: "
                "see copies.csv's opaque column",
                n=opaque,
            ),
            "yellow",
        )


def _grade_with_progress(
    batch, folder: Path, args: argparse.Namespace, only, log: Path, console: Console
) -> list[dict]:
    """The class graded with a progress bar and one line per job as it finishes."""
    with Progress(
        TextColumn("[bold]" + escape(_("grading the class")) + "[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[eta]}"),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("class", total=None, eta="eta --")

        def on_job(r: dict, eta: batch.Eta) -> None:
            progress.update(task, total=eta.total, completed=eta.done, eta=eta.text())
            res = ExerciseResult.from_dict(r["result"])
            progress.console.print(
                f"  {escape(format(r['student'], '<16'))} {escape(format(r['exercise'], '<4'))} "
                f"{escape(format(report._exercise_line(res)[1], '<22'))}"
                f" {escape(format(res.duration_s, '5.1f'))}s  "
                f"[{escape(str(eta.done))}/{escape(str(eta.total))}, {escape(str(eta.text()))}]",
                highlight=False,
            )

        return batch.grade_class_jobs(
            folder,
            jobs=args.jobs,
            only=only,
            on_job=on_job,
            log=log,
            fresh=args.fresh,
            use_ray=args.ray is not None,
            ray_address=args.ray or None,
        )


def _cmd_batch(args: argparse.Namespace, console: Console) -> int:
    if args.ray is not None and not args.collect and _missing_extra("ray", console):
        return 2
    from grader.classroom import analytics, batch

    out = Path(args.out)
    if args.collect:
        skipped: list[str] = []
        job_results = batch.collect_jobs(Path(args.collect), Path(args.job_files) if args.job_files else None, skipped)
        for line in skipped:
            _say(console, _("unreadable job result {line}", line=line), "yellow")
        missing = batch.missing_jobs(job_results)
        if missing:  # a partial class is no class report: say who, and how to finish it
            for student, ex_id in missing:
                _say(console, _("no result for {student} {id}", student=student, id=ex_id), "red")
            _say(
                console,
                _(
                    "grader: {n} job(s) of the class have no result in {folder}; nothing written. Grade them "
                    "(`grader job <its job file> > {folder}/<n>.json`, or pass --job-files with the job files "
                    "and the missing ones are graded now), then collect again",
                    n=len(missing),
                    folder=args.collect,
                ),
                "red",
            )
            return 1
        source = str(args.collect)
    else:
        folder = Path(args.submissions or "")
        if not folder.is_dir():
            _say(console, _("grader: no submissions folder {folder}", folder=folder), "red")
            return 2
        only = [catalog.get(i).id for i in args.only.split(",") if i] if args.only else None
        if args.write_jobs:  # for a batch queue: one `grader job` file per job
            import json

            jobs_dir = Path(args.write_jobs)
            jobs_dir.mkdir(parents=True, exist_ok=True)
            todo = batch.class_jobs(batch.submissions_in(folder), only)
            for i, job in enumerate(todo):
                (jobs_dir / f"{i}.json").write_text(json.dumps(job))
            _say(
                console,
                _(
                    "wrote {n} job files {folder}/0.json .. {last}.json",
                    n=len(todo),
                    folder=jobs_dir,
                    last=len(todo) - 1,
                ),
            )
            return 0
        log = Path(args.log) if args.log else out.with_suffix(".jobs.jsonl")
        if args.ray is None:
            engine = _("local pool")
        else:
            engine = _("Ray at {address}", address=args.ray) if args.ray else "Ray"
        try:
            job_results = _grade_with_progress(batch, folder, args, only, log, console)
        except KeyboardInterrupt:  # Ctrl-C: what finished is in the log; no traceback
            _say(console, _("interrupted; rerun the same command to resume (results so far: {log})", log=log), "yellow")
            return 130
        done = _(
            "{n} jobs ({engine}); each result appended to {log} as it finished",
            n=len(job_results),
            engine=engine,
            log=log,
        )
        _say(console, done, "dim")
        source = str(folder)
    rows = batch.summarize_class(job_results)
    batch.write_csv(rows, out)
    _print_levels(rows, console)
    class_report = analytics.from_jobs(job_results, source)
    page = analytics.write(class_report, Path(args.report))
    wrote = _(
        "wrote {out}; class analytics in {folder}/ ({page}, keypoints.csv, misconceptions.csv, levels.csv, "
        "parts.csv, copies.csv)",
        out=out,
        folder=args.report,
        page=page.name,
    )
    _say(console, wrote, "dim")
    _say_copies(class_report, console)
    return 0


def _cmd_gradescope(args: argparse.Namespace, console: Console) -> int:
    from grader.classroom import gradescope

    if args.action == "run":
        return gradescope.run(Path(args.root) if args.root else None)
    if args.action == "prepare":
        _say(console, _("model cache ready: {path}", path=gradescope.prepare()))
        return 0
    if not args.zip:
        _say(console, _("grader: gradescope build needs the zip's path"), "red")
        return 2
    try:
        only = [i for i in args.only.replace(" ", ",").split(",") if i] if args.only else None
        names = gradescope.build_zip(
            args.zip,
            only=only,
            visibility=args.visibility,
            reveal_expected=args.reveal_expected,
            torch_index_url=args.torch_index_url,
            lang=i18n.current(),
        )
    except (KeyError, ValueError) as exc:
        _say(console, _("grader: cannot build: {why}", why=exc.args[0] if exc.args else exc), "red")
        return 2
    wrote = _(
        "wrote {zip}: {n} files (setup.sh, run_autograder, the grader, stubs, solutions)", zip=args.zip, n=len(names)
    )
    _say(console, wrote)
    _say(console, _("next: upload it as the assignment's autograder (docs/scale-out.md, Gradescope)"))
    return 0


def _cmd_job(args: argparse.Namespace, console: Console) -> int:
    import json

    from grader.classroom import batch

    job = json.loads(Path(args.job_file).read_text())
    print(json.dumps(batch.run_job(job)))
    return 0


def _cmd_quiz(args: argparse.Namespace, console: Console) -> int:
    from grader import i18n, quiz
    from grader.quiz import bank

    i18n.use(i18n.detect(args.lang))  # an unknown target is refused in the quiz's language too
    try:
        for item in (t for arg in args.targets for t in arg.replace(",", " ").split()):
            if item.upper() not in ("R", "A", "B", "C"):
                bank.get(item)
    except KeyError as exc:
        console.print(f"[red]grader: {escape(str(exc.args[0]))}[/]", highlight=False)
        return 2
    return quiz.main(
        args.targets,
        lang=args.lang,
        seed=args.seed,
        history=args.history,
        learner=args.learner,
        db=args.db,
        rounds=args.rounds,
    )


# argparse's own words: it looks each up with gettext's gettext()/ngettext() when it shows it
# (argparse.py: "from gettext import gettext as _, ngettext"), from gettext's global domain, which
# holds none. These are the ones a learner meets (the help pages, a mistyped command), in the catalog.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
)


def _argparse_speaks_ours() -> None:
    """argparse's words through the catalog, in the language in use when each is shown."""
    argparse._ = lambda msgid: i18n.lookup(msgid, i18n.current())
    argparse.ngettext = lambda one, many, n: i18n.lookup(one if n == 1 else many, i18n.current())


def _lang_asked(argv: list[str] | None) -> str | None:
    """``--lang`` as typed, before the parser exists: its help pages are in that language."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", nargs="?")
    return pre.parse_known_args(argv)[0].lang


def _terminated(signum, frame):
    raise KeyboardInterrupt  # kill, a batch queue's cancel: stopped as Ctrl-C is, check processes with it


def main(argv: list[str] | None = None) -> int:
    if threading.current_thread() is not threading.main_thread():
        return _main(argv)
    before = signal.signal(signal.SIGTERM, _terminated)
    try:
        return _main(argv)
    finally:  # a caller's own handler (pytest's, a notebook's) again
        signal.signal(signal.SIGTERM, before)


def _main(argv: list[str] | None) -> int:
    i18n.use(i18n.detect(_lang_asked(argv)))  # the help pages and the parser's errors speak it too
    _argparse_speaks_ours()
    parser = argparse.ArgumentParser(prog="grader", description=_("Grade The Algorithm Engineer's Toolbox exercises."))
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help=_("grade a folder of exercise modules"))
    g.add_argument("--target", default="exercises", help=_("folder to grade: exercises (default), solutions or a path"))
    g.add_argument(
        "ids", nargs="*", metavar="ID", help=_("exercises to grade, e.g. A3 P1 (default: all; same as --only)")
    )
    g.add_argument("--only", help=_("comma-separated exercise ids, e.g. A3,P1"))
    g.add_argument("--jobs", type=int, default=None, help=_("exercises graded at once (default: CPU count)"))
    g.add_argument("--json", default="grade-report.json", help=_("Gradescope results.json path ('' to skip)"))
    g.add_argument("--html", default="grade-report.html", help=_("HTML report path ('' to skip)"))
    g.add_argument(
        "--lang", choices=i18n.LANGS, help=_("the report's language (default: $GRADER_LANG, else the locale's)")
    )
    g.add_argument("--fresh", action="store_true", help=_("re-grade everything selected, ignoring earlier results"))
    g.add_argument(
        "--no-quiz",
        action="store_true",
        help=_("count the levels from the code alone (the classroom's counting), not the quiz's closed-book answers"),
    )
    g.add_argument("--learner", help=_("whose quiz attempts count (default: $TOOLBOX_GRADER_LEARNER or the user name)"))
    g.add_argument(
        "--reveal",
        action="store_true",
        help=_("show the expected values of recall key points now (otherwise after 3 different wrong answers)"),
    )
    g.add_argument(
        "--override",
        action="append",
        default=[],
        metavar="ID=FILE",
        help=_("grade one exercise from another file (e.g. a mutant)"),
    )
    lst = sub.add_parser("list", help=_("list the catalog"))
    lst.add_argument("-v", "--verbose", action="store_true", help=_("show key points"))
    cls = sub.add_parser(
        "classroom",
        help=_(
            "nbgrader course: build it, read per-student mastery or the class "
            "analytics from it, or seal the grader's files again after a deliberate change"
        ),
    )
    cls.add_argument("action", choices=["build", "mastery", "analytics", "seal"])
    cls.add_argument("course_dir", help=_("the nbgrader course directory"))
    cls.add_argument("--only", help=_("comma-separated exercise ids to include (build)"))
    cls.add_argument("--out", help=_("folder of the class analytics (analytics; default COURSE/class-report)"))
    cls.add_argument(
        "--course-id", help=_("nbgrader's course id, for release and collect (build; default: the folder's name)")
    )
    cls.add_argument(
        "--lang",
        choices=i18n.LANGS,
        help=_(
            "the language: of the notebooks and feedback (build; default: the locale's), of mastery's and the "
            "analytics' reports and CSVs (default: the language the course was built in)"
        ),
    )
    bat = sub.add_parser("batch", help=_("grade a class: every subfolder of SUBMISSIONS is one student"))
    bat.add_argument("submissions", nargs="?", help=_("folder of submission folders"))
    bat.add_argument(
        "--jobs",
        type=int,
        default=None,
        help=_("exercises graded at once across the class (default 2; with --ray: the cluster's CPUs)"),
    )
    bat.add_argument("--only", help=_("comma-separated exercise ids"))
    bat.add_argument("--out", default="levels.csv", help=_("CSV of levels per student"))
    bat.add_argument("--report", default="class-report", help=_("folder of the class analytics (CSV + HTML)"))
    bat.add_argument(
        "--log",
        help=_("results log, one JSON line per job (default: beside --out, .jobs.jsonl); a rerun continues from it"),
    )
    bat.add_argument("--fresh", action="store_true", help=_("grade every job again, ignoring the results log"))
    bat.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help=_("run the jobs on a Ray cluster (ADDRESS, e.g. head:6379; none: RAY_ADDRESS or a local one)"),
    )
    bat.add_argument(
        "--write-jobs",
        metavar="DIR",
        help=_("write one job file per job (DIR/0.json, ...) for `grader job` on a batch queue, and stop"),
    )
    bat.add_argument(
        "--collect",
        metavar="DIR",
        help=_("summarise job results instead: `grader job` outputs (*.json) or a results log (*.jsonl)"),
    )
    bat.add_argument(
        "--job-files",
        metavar="DIR",
        help=_(
            "with --collect: the job files (DIR/3.json for results/3.json); a job whose result is empty or cut "
            "short is graded again from its file"
        ),
    )
    job = sub.add_parser("job", help=_("run one grading job (JSON) and print its result (JSON): for a batch queue"))
    job.add_argument("job_file")
    gs = sub.add_parser("gradescope", help=_("Gradescope: build the autograder zip; run (what run_autograder calls)"))
    gs.add_argument("action", choices=["build", "run", "prepare"])
    gs.add_argument("zip", nargs="?", help=_("the zip to write (build)"))
    gs.add_argument("--only", help=_("comma-separated exercise ids the assignment grades (build; default all)"))
    gs.add_argument(
        "--visibility",
        default="visible",
        choices=["visible", "after_due_date", "after_published", "hidden"],
        help=_("Gradescope visibility of the key-point tests (build)"),
    )
    gs.add_argument(
        "--reveal-expected",
        action="store_true",
        help=_("show the hidden checks' expected values in the feedback (build; default: not, as the classroom)"),
    )
    gs.add_argument(
        "--torch-index-url",
        default=None,
        help=_(
            "the index setup.sh installs torch's CPU build from (build; default $GRADER_TORCH_INDEX_URL, "
            "else pip's own index)"
        ),
    )
    gs.add_argument("--lang", choices=i18n.LANGS, help=_("the feedback's language (build; default: the locale's)"))
    gs.add_argument("--root", help=_("the autograder root (run; default $GRADER_AUTOGRADER_ROOT or /autograder)"))
    qz = sub.add_parser("quiz", help=_("the closed-book quiz of sets R, A, B, C (drawn numbers, recorded attempts)"))
    qz.add_argument(
        "targets", nargs="*", help=_("sets R A B C and/or question ids (A6, C1, R.ridge_point); default: all")
    )
    qz.add_argument("--lang", choices=i18n.LANGS, help=_("question language (default: from the locale)"))
    qz.add_argument(
        "--seed", type=int, help=_("practice: draw the variants from this seed; nothing is recorded or counted")
    )
    qz.add_argument("--history", action="store_true", help=_("show progress: attempts, streaks, mastered questions"))
    qz.add_argument("--learner", help=_("whose attempts (default: $TOOLBOX_GRADER_LEARNER or the user name)"))
    qz.add_argument(
        "--rounds",
        type=int,
        default=2,
        help=_(
            "rounds per run: later rounds re-ask what was wrong in this sitting (a same-day review, it masters nothing)"
        ),
    )
    qz.add_argument("--db", help=_("the attempts' SQLite file (default: $XDG_DATA_HOME/toolbox-grader/quiz.sqlite)"))
    for grading in (g, cls, bat, job, gs):
        grading.add_argument(
            "--allow-unsandboxed",
            action="store_true",
            help=_(
                "grade even where the learner's code gets no file-system wall (it could read the checks and "
                "solutions): trusted code only"
            ),
        )
    args = parser.parse_args(argv)
    _wall_policy(args)
    i18n.use(i18n.detect(getattr(args, "lang", None)))  # also the check processes' and notebooks' language
    console = report.new_console()
    commands = {
        "grade": _cmd_grade,
        "list": _cmd_list,
        "classroom": _cmd_classroom,
        "batch": _cmd_batch,
        "job": _cmd_job,
        "quiz": _cmd_quiz,
        "gradescope": _cmd_gradescope,
    }
    return commands[args.command](args, console)


if __name__ == "__main__":
    sys.exit(main())
