"""The quiz in a terminal or a notebook: one question at a time, each sub-answer validated (form,
units, slips) before it is assessed, feedback after each, the course's 答案 after each question.

Input is plain ``input()`` (a TTY, piped lines, a notebook cell); output goes through a rich
``Console``, which writes plain text when it is not a terminal. Typing ``q`` (or end of input, or
Ctrl-C) stops; what was answered is kept, and the next run resumes with the same variant.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor

from rich.console import Console
from rich.text import Text

from grader.course import catalog
from grader.course.tex import plain
from grader.i18n import N_
from grader.quiz import bank as qbank, progress as qprogress, store as qstore, truth as qtruth
from grader.quiz.answers import Invalid, YesNo
from grader.quiz.words import say

MAX_SLIPS = 2  # slips named per sub-answer; after that the entry is assessed as typed
QUIT = {"q", "quit", "exit", ":q", "退出"}
HELP = {"?", "h", "help", "帮助"}
SET_ORDER = ("R", "A", "B", "C")


class IO:
    """Where the quiz talks and listens."""

    def __init__(
        self, console: Console | None = None, read: Callable[[str], str] = input, echo: bool | None = None, stdin=None
    ):
        self.console = console or Console(highlight=False, soft_wrap=True)
        self._read = read
        self.stdin = sys.stdin if stdin is None else stdin
        self.echo = (not self.stdin.isatty()) if echo is None else echo

    def discard_typeahead(self) -> None:
        """On a terminal, drop what was typed before the prompt (while the answers were computed): it
        would be read as the next answer. Piped input is kept: there every line is an answer."""
        try:
            if not self.stdin.isatty():
                return
            import termios

            termios.tcflush(self.stdin.fileno(), termios.TCIFLUSH)
        except (ImportError, OSError, ValueError, AttributeError):  # no termios (Windows), a closed or fake stdin
            pass

    def out(self, text: str = "", style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""))

    def read(self, prompt: str = "> ") -> str | None:
        self.discard_typeahead()
        self.console.print(Text(prompt, style="bold cyan"), end="")
        self.console.file.flush()
        try:
            line = self._read("")
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return None
        if self.echo:
            self.console.print(Text(line))
        return line


def expand_targets(targets: Iterable[str]) -> tuple[list[qbank.Question], bool]:
    """Sets (R, A, B, C) and question ids; returns the questions and whether ids were named."""
    items = [t for arg in targets for t in arg.replace(",", " ").split() if t]
    if not items:
        items = list(SET_ORDER)
    out, explicit = [], False
    for item in items:
        if item.upper() in SET_ORDER:
            out += qbank.questions(item.upper())
        else:
            out.append(qbank.get(item))
            explicit = True
    seen, unique = set(), []
    for q in out:
        if q.id not in seen:
            seen.add(q.id)
            unique.append(q)
    return unique, explicit


class Session:
    def __init__(
        self,
        store: qstore.Store,
        learner: str,
        lang: str = "en",
        seed: int | None = None,
        io: IO | None = None,
        rounds: int = 1,
        now: Callable[[], float] = time.time,
    ):
        self.learner, self.lang, self.rounds = learner, lang, max(1, rounds)
        # --seed is practice: numbers anyone can draw again count toward nothing, so its answers
        # live in memory only, and its seeds are never a graded variant's (store.practice_seed)
        self.practice = seed is not None
        self.store = qstore.Store(":memory:") if self.practice else store
        self.seed = seed
        self._secret = None if self.practice else store.secret()
        self.now = now  # the clock (a fake one in the tests: a simulated week)
        self.io = io or IO()
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quiz-truth")
        self.answered = self.right = 0
        self.slips = 0
        self.wrong: list[tuple] = []  # (question, prompt, typed, right value shown) of this sitting
        self.asked: list[str] = []
        self.ahead: list[qbank.Question] = []  # the questions still to ask in this round
        self.deferred: dict[str, set[str]] = {}  # a course answer held back -> what it waits for
        self.current: tuple | None = None
        qtruth.set_cache(store.cache_get, store.cache_put)

    def t(self, msgid: str, /, **fields: object) -> str:
        return say(self.lang, msgid, **fields)

    def variant_seed(self, question_id: str, attempt: int) -> int:
        if self.practice:
            return qstore.practice_seed(self.seed, question_id, attempt)
        return qstore.graded_seed(self._secret, self.learner, question_id, attempt)

    # -------------------------------------------------------------- the run
    def state(self, q: qbank.Question) -> qprogress.QuestionState:
        return qprogress.question_state(q, self.store.rows(self.learner, q.id))

    def _unfinished(self, q: qbank.Question) -> float | None:
        """When an attempt of ``q`` was stopped part-way (its last answer), else None."""
        rows = self.store.rows(self.learner, q.id)
        if not rows:
            return None
        atts = qstore.attempts(rows)
        k = max(atts)
        if q.interview:
            v = self.pool.submit(q.variant, next(iter(atts[k].values())).variant_seed).result()  # a draw: the worker's
            done = self._not_due(q, rows)
            left = [p for p in v.parts() if p.id not in atts[k] and p.id not in done]
            return max(r.at for r in atts[k].values()) if left else None
        return None if qstore.attempt_complete(atts[k]) else max(r.at for r in atts[k].values())

    def agenda(self, questions: list[qbank.Question]) -> list[qbank.Question]:
        """What this sitting asks: a stopped question first (where the learner stopped), then what is
        due (the longest overdue first), then new questions; a question reviewed and not due waits."""
        now = self.now()
        stopped = sorted((t, i) for i, q in enumerate(questions) if (t := self._unfinished(q)) is not None)
        first = [questions[i] for _, i in reversed(stopped)]
        last_stop = self.store.stop(self.learner)  # where the last run stopped, answered part or not
        first = [q for q in questions if q.id == last_stop] + [q for q in first if q.id != last_stop]
        rest = [q for q in questions if q not in first]
        states = {q.id: self.state(q) for q in rest}
        due = sorted((q for q in rest if states[q.id].is_due(now)), key=lambda q: states[q.id].due)
        new = [q for q in rest if states[q.id].new and q not in due]
        return first + due + new

    def run(self, questions: list[qbank.Question], explicit: bool = False) -> bool:
        """Ask what is due, then new questions (named ones all, a stopped one first); False if the
        learner stopped. Later rounds (``rounds``) re-ask what was wrong in this sitting."""
        if self.practice:
            self.io.out(
                self.t(N_("Practice (--seed): answers are not recorded and count toward no mastery or level.")),
                "yellow",
            )
        todo = self.agenda(questions)
        if explicit:
            todo += [q for q in questions if q not in todo]
        if not todo:
            self.io.out(
                self.t(N_("Nothing is due now: come back for the next review.")),
                "green",
            )
        for round_no in range(self.rounds):
            if round_no:
                todo = [q for q in todo if q.id in {w[0] for w in self.wrong}]
                if not todo:
                    break
                self.io.out()
                self.io.out(
                    self.t(
                        N_(
                            "Round {round}: {n} question(s) answered wrong, with new variants "
                            "(a same-day review: it does not master them)."
                        ),
                        round=round_no + 1,
                        n=len(todo),
                    ),
                    "bold",
                )
            for i, q in enumerate(todo, 1):
                self.ahead = todo[i:]
                if self.ask(q, (i, len(todo))) == "quit":
                    self.summary(questions)
                    return False
        self.summary(questions)
        return True

    def _mastered(self, q: qbank.Question) -> bool:
        return self.state(q).mastered

    def _not_due(self, q: qbank.Question, rows) -> set[str]:
        """A C interview's sub-questions reviewed and not due yet (not asked again now)."""
        now = self.now()
        mems = {p.id: qstore.memory(qstore.part_reviews(rows, p.id)) for p in q.all_parts}
        return {p for p, m in mems.items() if not m.new and not m.is_due(now)}

    # -------------------------------------------------------------- one question
    def _planned(self, q: qbank.Question):
        attempt, variant, parts = self.plan(q)
        variant.prepare()
        return attempt, variant, parts

    def plan(self, q: qbank.Question) -> tuple[int, qbank.Variant, list[qbank.Part]]:
        """The attempt to ask (an unfinished one resumes), its variant and the parts still to ask."""
        rows = self.store.rows(self.learner, q.id)
        atts = qstore.attempts(rows)

        def variant(k):  # an attempt already begun keeps the variant it was asked with (whatever --seed now)
            begun = atts.get(k)
            seed = next(iter(begun.values())).variant_seed if begun else self.variant_seed(q.id, k)
            return q.variant(seed)

        if q.interview:
            done = self._not_due(q, rows)
            if atts:
                k = max(atts)
                v = variant(k)
                left = [p for p in v.parts() if p.id not in atts[k] and p.id not in done]
                if left:
                    return k, v, left
            k = max(atts) + 1 if atts else 0
            v = variant(k)
            return k, v, [p for p in v.parts() if p.id not in done] or v.parts()
        k = max(atts) if atts else 0
        if atts and qstore.attempt_complete(atts[k]):
            k += 1
        v = variant(k)
        answered = set(atts.get(k, {}))
        return k, v, [p for p in v.parts() if p.id not in answered]

    def ask(self, q: qbank.Question, position: tuple[int, int] = (1, 1)) -> str:
        """Ask one attempt of ``q``; returns "right", "wrong" or "quit".

        Everything that touches the ground truth (the draw, the premises in the text, the right
        answers) runs in one worker thread, one job after the other: torch and transformers are
        imported and run from there only. The right answers are computed while the learner reads."""
        io = self.io
        attempt, variant, parts = self.pool.submit(self._planned, q).result()
        future = self.pool.submit(variant.compute_all)
        state = qprogress.question_state(q, self.store.rows(self.learner, q.id))
        in_set = [s for s in qbank.questions(q.set)]
        n_mastered = sum(self._mastered(x) for x in in_set)
        io.out()
        io.out(
            f"── {q.set} {position[0]}/{position[1]} · {q.id} · {self.t(q.title)} · "
            + (
                self.t(N_("variant {variant} (practice)"), variant=attempt + 1)
                if self.practice  # nothing of practice is mastered, nor counted
                else self.t(
                    N_("variant {variant}, mastered in {set}: {mastered}/{total}"),
                    variant=attempt + 1,
                    set=q.set,
                    mastered=n_mastered,
                    total=len(in_set),
                )
            )
            + (self.t(N_(" · streak {streak}"), streak=state.streak) if state.streak else "")
            + " ──",
            "bold",
        )
        io.out(plain(variant.text(self.lang)))
        if self.lang == "en":
            io.out(f"原文：{plain(variant.text('zh'))}", "dim")
        all_parts = variant.parts()
        ids = [p.id for p in all_parts]
        if q.interview:
            io.out(
                self.t(N_("An interview: {n} short questions in turn."), n=len(parts))
                if len(parts) == len(all_parts)
                else self.t(
                    N_("An interview: {left} of its {n} short questions to answer now."), left=len(parts), n=len(ids)
                ),
                "dim",
            )
        first = ids.index(parts[0].id) if parts else 0
        if first:  # resumed (or only what is due): the setting a later part reads on ("它", "And how many …")
            io.out(
                self.t(
                    N_("Before it, question {k}: {prompt}"),
                    k=first,
                    prompt=plain(variant.prompt(all_parts[first - 1], self.lang)),
                ),
                "dim",
            )
        results: dict[str, bool] = {}
        for part in parts:  # numbered among all its parts: a resumed question goes on at [3/9]
            res = self.ask_part(q, variant, part, attempt, len(all_parts), future, (ids.index(part.id) + 1, len(ids)))
            if res == "quit":
                self.store.set_stop(self.learner, q.id, self.now())
                stopped = (
                    N_("Stopped. Practice answers are not kept: the same --seed starts again from the beginning.")
                    if self.practice
                    else N_("Stopped. Your answers so far are saved; the next run resumes here.")
                )
                io.out(self.t(stopped), "yellow")
                return "quit"
            if res in ("right", "wrong"):
                results[part.id] = res == "right"
        self.after_question(q, variant, attempt, results)
        return "right" if results and all(results.values()) else "wrong"

    def _truth(self, variant: qbank.Variant, part: qbank.Part, future: Future):
        if not future.done():
            self.io.out(
                self.t(
                    N_(
                        "(computing this variant's answer from the ground truth… what you type meanwhile is "
                        "discarded: type at the next prompt)"
                    )
                ),
                "dim",
            )
        future.result()
        return variant.truth(part)

    def ask_part(self, q, variant, part, attempt, n_parts, future, position) -> str:
        io, lang = self.io, self.lang
        answer = variant.answer(part)
        if isinstance(answer, YesNo):  # the course's Chinese echo answers: 健康吗？ -> 健康 / 不健康
            answer = answer.echoing(variant.prompt(part, "zh"))
        label = f"[{position[0]}/{position[1]}] " if position[1] > 1 else ""
        io.out(label + plain(variant.prompt(part, lang)), "bold")
        for line in answer.options_text(lang):
            io.out("   " + line)
        io.out("   " + self.t(N_("answer: {hint}  (q to stop)"), hint=answer.hint(lang)), "dim")
        slips: list[str] = []
        t0 = time.monotonic()
        self.current = (variant, part, answer, future)  # what is being asked (scripted learners in the tests read it)
        while True:
            text = io.read("> ")
            if text is None or text.strip().lower() in QUIT:
                return "quit"
            if text.strip().lower() in HELP:
                io.out("   " + answer.hint(lang), "dim")
                continue
            try:
                value = answer.parse(text)
            except Invalid as exc:
                io.out("   " + self.t(N_("{refusal} Type it again."), refusal=exc.text(lang)), "yellow")
                continue
            try:
                truth = self._truth(variant, part, future)
            except Exception as exc:  # noqa: BLE001  the ground truth could not be computed here
                io.out(
                    "   "
                    + self.t(
                        N_(
                            "The ground truth for this sub-question failed on this machine ({error!r}); it is "
                            "skipped and not recorded."
                        ),
                        error=exc,
                    ),
                    "red",
                )
                return "error"
            if len(slips) < MAX_SLIPS:
                slip = answer.slip(value, truth)
                if slip is not None:
                    slips.append(text.strip())
                    io.out(
                        "   "
                        + self.t(
                            N_("{slip} Type your answer again (this attempt is not used up)."), slip=slip.text(lang)
                        ),
                        "yellow",
                    )
                    continue
            correct = answer.assess(value, truth)
            break
        seconds = time.monotonic() - t0
        self.store.record(
            learner=self.learner,
            question=q.id,
            part=part.id,
            attempt=attempt,
            n_parts=n_parts,
            variant_seed=variant.seed,
            params=variant.params,
            answer=text.strip(),
            value=answer.encode(value),
            expected=truth,
            correct=correct,
            slips=slips,
            seconds=seconds,
            lang=lang,
            at=self.now(),
        )
        self.answered += 1
        self.right += correct
        self.slips += len(slips)
        shown = answer.show(truth, lang)
        if not correct:
            self.wrong.append((q.id, variant.prompt(part, lang), text.strip(), shown))
        if correct:
            io.out("   ✓ " + self.t(N_("right — {value}"), value=shown), "green")
        else:
            io.out("   ✗ " + self.t(N_("not right; this variant's value: {value}"), value=shown), "red")
        how = self.pool.submit(variant.how, part, lang).result()
        if how:
            io.out("     " + self.t(N_("how: {how}"), how=how), "dim")
        return "right" if correct else "wrong"

    def after_question(self, q, variant, attempt, results: dict[str, bool]) -> None:
        io, lang = self.io, self.lang
        self.store.clear_stop(self.learner, q.id)
        rows = self.store.rows(self.learner, q.id)
        state = qprogress.question_state(q, rows)
        io.out()
        if q.interview:
            self._interview_key(q, rows, attempt)
        else:
            complete = qstore.attempt_complete(qstore.attempts(rows).get(attempt, {}))
            if complete:
                ok = all(r.correct for r in qstore.attempts(rows)[attempt].values())
                verdict = self.t(N_("Right")) if ok else self.t(N_("Not right"))
                msg = (
                    self.t(N_("{verdict} (practice: nothing recorded, no review scheduled)."), verdict=verdict)
                    if self.practice
                    else self.t(N_("{verdict} — mastered (recalled after days)."), verdict=verdict)
                    if state.mastered
                    else self.t(
                        N_("{verdict} — next review {when}, with a new variant."),
                        verdict=verdict,
                        when=when(state.due, self.now(), lang),
                    )
                )
                io.out(f"{q.id}: {msg}", "green" if ok else "red")
            self.course_answer(q)
        io.out(self.t(N_("Re-read: {where}"), where=q.reread[1] if lang == "zh" else q.reread[0]), "cyan")
        self._release_deferred(q)

    def course_answer(self, q) -> None:
        """The course's 答案 after a question, unless it states the answer of a question still ahead
        in this round (R.einsum_qk's states einsum_pv's subscripts): then it waits for that one."""
        waits = {r.id for r in self.ahead if r.id != q.id and gives_away(q) & gives_away(r)}
        if waits:
            self.deferred[q.id] = waits
            self.io.out(
                self.t(
                    N_("The course's answer also answers {ids}, still to come: it is shown after them."),
                    ids=self.t(N_(", ")).join(sorted(waits)),
                ),
                "dim",
            )
            return
        self.io.out(self.t(N_("The course's answer (答案):")), "bold")
        self.io.out("  " + plain(q.answer_zh))
        self.rendering(q.answer_en, "  ")

    def _release_deferred(self, answered) -> None:
        for qid, waits in list(self.deferred.items()):
            waits.discard(answered.id)
            if not waits:
                del self.deferred[qid]
                self.io.out(self.t(N_("The course's answer to {id}, held back until now:"), id=qid), "bold")
                self.course_answer(qbank.get(qid))

    def rendering(self, en: str, indent: str) -> None:
        """The English rendering of the course's words, under the Chinese original: in English only."""
        if self.lang != "zh":
            self.io.out(indent + plain(en), "dim")

    def _interview_key(self, q, rows, attempt) -> None:
        io = self.io
        this = {r.part: r.correct for r in rows if r.attempt == attempt}
        state = qprogress.question_state(q, rows)
        io.out(
            self.t(N_("The course's answer key points (答案要点), and how you did:")),
            "bold",
        )
        for k, (zh, en) in enumerate(q.points, 1):
            parts = [p for p in q.all_parts if p.point == k and not p.followup]
            asked = [this[p.id] for p in parts if p.id in this]
            mark = "✓" if state.points.get(f"{q.id}.p{k}") else ("✓" if asked and all(asked) else "✗" if asked else "·")
            io.out(f" {mark} ({k}) {plain(zh)}")
            self.rendering(en, "       ")
        if q.followups:
            io.out(self.t(N_("Follow-up directions (追问方向):")), "bold")
            io.out("  " + plain(q.followups[0]))
            self.rendering(q.followups[1], "  ")
        if q.good:
            io.out("  " + plain(q.good[0]))
            self.rendering(q.good[1], "  ")
        if self.practice:  # its answers count toward no key point
            return
        p, t = sum(state.points.get(f"{q.id}.p{k}", False) for k in range(1, len(q.points) + 1)), len(q.points)
        io.out(
            self.t(
                N_(
                    "{id}: {mastered}/{total} key points mastered (each sub-question recalled right after "
                    "{days:g} days or more); the pass line asks for at least half."
                ),
                id=q.id,
                mastered=p,
                total=t,
                days=qstore.mastery_days(),
            ),
            "green" if 2 * p >= t else "yellow",
        )

    # -------------------------------------------------------------- summaries
    def summary(self, questions: list[qbank.Question]) -> None:
        """The sitting's end: right, wrong, slips, what is due when, then the wrong answers again
        with the course's 答案."""
        prog = qprogress.progress(self.store, self.learner)
        io, now = self.io, self.now()
        io.out()
        wrong = self.answered - self.right
        io.out(
            self.t(
                N_("This session: {answered} answers, {right} right, {wrong} wrong, {slips} slip(s) named."),
                answered=self.answered,
                right=self.right,
                wrong=wrong,
                slips=self.slips,
            ),
            "bold",
        )
        # practice keeps nothing: no mastery to count, no review to schedule
        dues = [] if self.practice else sorted((s.due, s.id) for s in prog.questions.values() if s.due is not None)
        if not self.practice:
            io.out(closed_book_line(prog, self.lang))
        if dues:
            due_now = [qid for d, qid in dues if d <= now]
            later = [(d, qid) for d, qid in dues if d > now]
            if due_now:
                io.out(self.t(N_("Due now: {ids}."), ids=self.t(N_(", ")).join(due_now)))
            if later:
                d, qid = later[0]
                n_day = sum(1 for x, _ in later if x <= d + DAY)
                io.out(
                    self.t(
                        N_("Next review: {when} ({id}; {n} question(s) within a day of it)."),
                        when=when(d, now, self.lang),
                        id=qid,
                        n=n_day,
                    )
                )
        if self.wrong:
            io.out()
            io.out(self.t(N_("Your wrong answers, to review:")), "bold")
            seen = set()
            for qid, prompt, typed, shown in self.wrong:
                q = qbank.get(qid)
                io.out(f" ✗ {qid} · {plain(prompt)}")
                io.out(
                    "   " + self.t(N_("you typed {typed!r}; this variant's value: {value}"), typed=typed, value=shown),
                    "red",
                )
                if qid in seen or q.interview or qid in self.deferred:  # still waits for a question ahead
                    continue
                seen.add(qid)
                io.out("   " + self.t(N_("The course's answer (答案): {answer}"), answer=plain(q.answer_zh)))
                self.rendering(q.answer_en, "   ")
            for qid in dict.fromkeys(w[0] for w in self.wrong):
                q = qbank.get(qid)
                if q.interview:
                    io.out(" " + self.t(N_("{id}: the course's key points (答案要点):"), id=qid), "bold")
                    for k, (zh, en) in enumerate(q.points, 1):
                        io.out(f"   ({k}) {plain(zh)}")
                        self.rendering(en, "       ")


DAY = qstore.DAY


def gives_away(q: qbank.Question) -> frozenset[str]:
    """The facts (the catalog's ``forbidden`` items) that a question's course answer states."""
    return _facts(f"{q.answer_en} {q.answer_zh}")


@functools.cache
def _facts(text: str) -> frozenset[str]:
    return frozenset(item for ex in catalog.CATALOG for item in ex.gives_away(text))


def when(t: float | None, now: float, lang: str) -> str:
    """A review time, for a learner: 'now', 'in 2 days (2026-12-03 22:10)'."""
    if t is None:
        return say(lang, N_("new"))
    if t <= now:
        return say(lang, N_("now (due)"))
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
    days = (t - now) / DAY
    if t - now < DAY - 600:  # a day's interval, computed a moment ago, is still "1 day"
        return say(lang, N_("in {hours:.0f} h ({stamp})"), hours=(t - now) / 3600, stamp=stamp)
    return say(lang, N_("in {days:.0f} day(s) ({stamp})"), days=days, stamp=stamp)


def closed_book_line(prog: qprogress.QuizProgress, lang: str) -> str:
    c = " ".join(f"{k} {p}/{t}" for k, (p, t) in prog.c_points.items())
    return say(
        lang,
        N_(
            "Mastered in the quiz (recalled right at a review days after the last): "
            "R {r} · A {a} · B {b} · C key points: {c}"
        ),
        r="{}/{}".format(*prog.r),
        a="{}/{}".format(*prog.a),
        b="{}/{}".format(*prog.b),
        c=c,
    )


def self_study_note(store: qstore.Store, lang: str) -> str:
    return say(
        lang,
        N_(
            "Counted from your own file {path} (self-study: it is yours and can be edited, so these "
            "counts are as honest as you keep it; a class counts its gradebook instead)."
        ),
        path=store.path,
    )


HISTORY_COLUMNS = (
    N_("question"),
    N_("attempts"),
    N_("answers"),
    N_("streak"),
    N_("mastered"),
    N_("next review"),
    N_("time"),
)


def print_history(
    store: qstore.Store, learner: str, lang: str, console: Console | None = None, now: float | None = None
) -> None:
    from rich.table import Table

    console = console or Console(highlight=False)
    now = time.time() if now is None else now
    prog = qprogress.progress(store, learner)
    for set_id in SET_ORDER:
        table = Table(title=say(lang, N_("Set {set}"), set=set_id), title_justify="left")
        for col in HISTORY_COLUMNS:
            table.add_column(say(lang, col))
        for q in qbank.questions(set_id):
            s = prog.questions[q.id]
            marks = "".join("✓" if ok else "✗" for ok in s.history[-12:])
            extra = ""
            if q.interview:
                p, t = prog.c_points[q.id]
                pa, ta = prog.c_all[q.id]
                extra = " " + say(
                    lang, N_("{points} key points, {all} with follow-ups"), points=f"{p}/{t}", all=f"{pa}/{ta}"
                )
            table.add_row(
                f"{q.id} {say(lang, q.title)}",
                str(s.attempts),
                marks or "–",
                str(s.streak),
                ("✓" if s.mastered else "") + extra,
                when(s.due, now, lang),
                f"{s.seconds:.0f}s" if s.seconds else "",
            )
        console.print(table)
    console.print(closed_book_line(prog, lang), highlight=False)
    console.print(
        say(
            lang,
            N_("Mastered: recalled right {days:g} days or more after the review before (${env} sets it)."),
            days=qstore.mastery_days(),
            env=qstore.MASTERY_DAYS_ENV,
        ),
        highlight=False,
    )
    console.print(self_study_note(store, lang), highlight=False)
