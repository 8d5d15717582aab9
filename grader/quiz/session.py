"""The quiz in a terminal or a notebook: one question at a time, each sub-answer validated (form,
units, slips) before it is assessed, feedback after each, the course's 答案 after each question.

Input is plain ``input()`` (a TTY, piped lines, a notebook cell); output goes through a rich
``Console``, which writes plain text when it is not a terminal. Typing ``q`` (or end of input, or
Ctrl-C) stops; what was answered is kept, and the next run resumes with the same variant.
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, Iterable

from rich.console import Console
from rich.text import Text

from grader.quiz import bank as qbank
from grader.quiz import progress as qprogress
from grader.quiz import store as qstore
from grader.quiz import truth as qtruth
from grader.quiz.answers import Invalid, tr

MAX_SLIPS = 2  # slips named per sub-answer; after that the entry is assessed as typed
QUIT = {"q", "quit", "exit", ":q", "退出"}
HELP = {"?", "h", "help", "帮助"}
SET_ORDER = ("R", "A", "B", "C")


def default_lang() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


class IO:
    """Where the quiz talks and listens."""

    def __init__(self, console: Console | None = None, read: Callable[[str], str] = input, echo: bool | None = None):
        self.console = console or Console(highlight=False, soft_wrap=True)
        self._read = read
        self.echo = (not sys.stdin.isatty()) if echo is None else echo

    def out(self, text: str = "", style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""))

    def read(self, prompt: str = "> ") -> str | None:
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
    def __init__(self, store: qstore.Store, learner: str, lang: str = "en", seed: int | None = None,
                 io: IO | None = None, rounds: int = 2):
        self.learner, self.lang, self.rounds = learner, lang, max(1, rounds)
        # --seed is practice: numbers anyone can draw again count toward nothing, so its answers
        # live in memory only (a preview of a variant never becomes a mastered attempt)
        self.practice = seed is not None
        self.store = qstore.Store(":memory:") if self.practice else store
        self.base_seed = seed if seed is not None else store.learner_seed(learner)
        self.io = io or IO()
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quiz-truth")
        self.answered = self.right = 0
        self.current: tuple | None = None
        qtruth.set_cache(store.cache_get, store.cache_put)

    def t(self, en: str, zh: str) -> str:
        return tr(self.lang, en, zh)

    # -------------------------------------------------------------- the run
    def run(self, questions: list[qbank.Question], explicit: bool = False) -> bool:
        """Ask the questions (those not mastered yet, unless named); False if the learner stopped."""
        if self.practice:
            self.io.out(self.t("Practice (--seed): answers are not recorded and count toward no mastery or level.",
                               "练习模式（--seed）：作答不记录，不计入掌握与等级。"), "yellow")
        todo = questions if explicit else [q for q in questions if not self._mastered(q)]
        if not todo:
            self.io.out(self.t("Everything here is mastered: a review round with new variants.",
                               "这里的题都已掌握：换新变体复习一轮。"), "green")
            todo = questions
        for round_no in range(self.rounds):
            if round_no:
                todo = [q for q in todo if not self._mastered(q)]
                if not todo:
                    break
                self.io.out()
                self.io.out(self.t(f"Round {round_no + 1}: {len(todo)} question(s) not mastered yet, with new variants.",
                                   f"第 {round_no + 1} 轮：还有 {len(todo)} 题未掌握，换新变体再问。"), "bold")
            for i, q in enumerate(todo, 1):
                if self.ask(q, (i, len(todo))) == "quit":
                    self.summary(questions)
                    return False
        self.summary(questions)
        return True

    def _mastered(self, q: qbank.Question) -> bool:
        return qprogress.question_state(q, self.store.rows(self.learner, q.id)).mastered

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
            seed = next(iter(begun.values())).variant_seed if begun else qbank.variant_seed(self.base_seed, q.id, k)
            return q.variant(seed)

        if q.interview:
            done = {p.id for p in q.all_parts if qstore.mastered(qstore.part_history(rows, p.id))}
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
        io.out(f"── {q.set} {position[0]}/{position[1]} · {q.id} · {q.title} · "
               + self.t(f"variant {attempt + 1}, mastered in {q.set}: {n_mastered}/{len(in_set)}",
                        f"第 {attempt + 1} 个变体，{q.set} 组已掌握 {n_mastered}/{len(in_set)}")
               + (self.t(f" · streak {state.streak}", f" · 连对 {state.streak}") if state.streak else "") + " ──", "bold")
        io.out(variant.text(self.lang))
        if self.lang == "en":
            io.out(f"原文：{variant.text('zh')}", "dim")
        if q.interview:
            io.out(self.t(f"An interview: {len(parts)} short questions in turn.", f"面试：依次回答 {len(parts)} 个小问题。"), "dim")
        all_parts = variant.parts()
        results: dict[str, bool] = {}
        for j, part in enumerate(parts, 1):
            res = self.ask_part(q, variant, part, attempt, len(all_parts), future, (j, len(parts)))
            if res == "quit":
                io.out(self.t("Stopped. Your answers so far are saved; the next run resumes here.",
                              "已停止。已答的都保存了，下次从这里继续。"), "yellow")
                return "quit"
            if res in ("right", "wrong"):
                results[part.id] = res == "right"
        self.after_question(q, variant, attempt, results)
        return "right" if results and all(results.values()) else "wrong"

    def _truth(self, variant: qbank.Variant, part: qbank.Part, future: Future):
        if not future.done():
            self.io.out(self.t("(computing this variant's answer from the ground truth…)", "（正在用真值计算本变体的答案……）"), "dim")
        future.result()
        return variant.truth(part)

    def ask_part(self, q, variant, part, attempt, n_parts, future, position) -> str:
        io, lang = self.io, self.lang
        answer = variant.answer(part)
        label = f"[{position[0]}/{position[1]}] " if position[1] > 1 else ""
        io.out(label + variant.prompt(part, lang), "bold")
        for line in answer.options_text(lang):
            io.out("   " + line)
        io.out("   " + self.t("answer: ", "作答：") + answer.hint(lang) + self.t("  (q to stop)", "（q 退出）"), "dim")
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
                io.out("   " + exc.text(lang) + self.t(" Type it again.", " 请重新输入。"), "yellow")
                continue
            try:
                truth = self._truth(variant, part, future)
            except Exception as exc:  # noqa: BLE001  the ground truth could not be computed here
                io.out(self.t(f"   The ground truth for this sub-question failed on this machine ({exc!r}); it is "
                              "skipped and not recorded.", f"   本小题的真值在这台机器上算不出来（{exc!r}），跳过、不记录。"), "red")
                return "error"
            if len(slips) < MAX_SLIPS:
                slip = answer.slip(value, truth)
                if slip is not None:
                    slips.append(text.strip())
                    io.out("   " + slip.text(lang) + self.t(" Type your answer again (this attempt is not used up).",
                                                             " 请重新输入（本次作答不算数）。"), "yellow")
                    continue
            correct = answer.assess(value, truth)
            break
        seconds = time.monotonic() - t0
        self.store.record(learner=self.learner, question=q.id, part=part.id, attempt=attempt, n_parts=n_parts,
                          variant_seed=variant.seed, params=variant.params, answer=text.strip(),
                          value=answer.encode(value), expected=truth, correct=correct, slips=slips,
                          seconds=seconds, lang=lang)
        self.answered += 1
        self.right += correct
        shown = answer.show(truth, lang)
        if correct:
            io.out("   ✓ " + self.t("right", "对") + f" — {shown}", "green")
        else:
            io.out("   ✗ " + self.t("not right; this variant's value: ", "不对；本变体的答案：") + shown, "red")
        how = self.pool.submit(variant.how, part, lang).result()
        if how:
            io.out("     " + self.t("how: ", "怎么来的：") + how, "dim")
        return "right" if correct else "wrong"

    def after_question(self, q, variant, attempt, results: dict[str, bool]) -> None:
        io, lang = self.io, self.lang
        rows = self.store.rows(self.learner, q.id)
        state = qprogress.question_state(q, rows)
        io.out()
        if q.interview:
            self._interview_key(q, rows, attempt)
        else:
            complete = qstore.attempt_complete(qstore.attempts(rows).get(attempt, {}))
            if complete:
                ok = all(r.correct for r in qstore.attempts(rows)[attempt].values())
                msg = (self.t("Right", "答对") if ok else self.t("Not right", "没答对")) + \
                      (self.t(" — mastered (2 variants right in a row).", "——已掌握（连续两个变体答对）。") if state.mastered
                       else self.t(" — one more right variant to master it." if ok else " — the next try brings a new variant.",
                                   "——再对一个变体即掌握。" if ok else "——下次换一个新变体。"))
                io.out(f"{q.id}: {msg}", "green" if ok else "red")
            io.out(self.t("The course's answer (答案):", "课程的答案："), "bold")
            io.out("  " + q.answer_zh)
            io.out("  " + q.answer_en, "dim" if lang == "zh" else None)
        io.out(self.t("Re-read: ", "回看：") + (q.reread[1] if lang == "zh" else q.reread[0]), "cyan")

    def _interview_key(self, q, rows, attempt) -> None:
        io, lang = self.io, self.lang
        this = {r.part: r.correct for r in rows if r.attempt == attempt}
        state = qprogress.question_state(q, rows)
        io.out(self.t("The course's answer key points (答案要点), and how you did:", "课程的答案要点，以及你的作答："), "bold")
        for k, (zh, en) in enumerate(q.points, 1):
            parts = [p for p in q.all_parts if p.point == k and not p.followup]
            asked = [this[p.id] for p in parts if p.id in this]
            mark = "✓" if state.points.get(f"{q.id}.p{k}") else ("✓" if asked and all(asked) else "✗" if asked else "·")
            io.out(f" {mark} ({k}) {zh}")
            io.out(f"       {en}", "dim")
        if q.followups:
            io.out(self.t("Follow-up directions (追问方向):", "追问方向："), "bold")
            io.out("  " + q.followups[0])
            io.out("  " + q.followups[1], "dim")
        if q.good:
            io.out("  " + q.good[0])
            io.out("  " + q.good[1], "dim")
        p, t = sum(state.points.get(f"{q.id}.p{k}", False) for k in range(1, len(q.points) + 1)), len(q.points)
        io.out(self.t(f"{q.id}: {p}/{t} key points mastered (each needs 2 right answers in a row); "
                      f"the pass line asks for at least half.", f"{q.id}：已掌握 {p}/{t} 个要点（每个需连续答对两次）；通关要求至少一半。"),
               "green" if 2 * p >= t else "yellow")

    # -------------------------------------------------------------- summaries
    def summary(self, questions: list[qbank.Question]) -> None:
        prog = qprogress.progress(self.store, self.learner)
        io = self.io
        io.out()
        io.out(self.t(f"This session: {self.answered} answers, {self.right} right.",
                      f"本次：作答 {self.answered} 个，答对 {self.right} 个。"), "bold")
        io.out(closed_book_line(prog, self.lang))


def closed_book_line(prog: qprogress.QuizProgress, lang: str) -> str:
    c = " ".join(f"{k} {p}/{t}" for k, (p, t) in prog.c_points.items())
    return tr(lang, f"Mastered in the quiz: R {prog.r[0]}/{prog.r[1]} · A {prog.a[0]}/{prog.a[1]} · "
                    f"B {prog.b[0]}/{prog.b[1]} · C key points: {c}",
              f"测验中已掌握：R {prog.r[0]}/{prog.r[1]} · A {prog.a[0]}/{prog.a[1]} · B {prog.b[0]}/{prog.b[1]} · C 要点：{c}")


def print_history(store: qstore.Store, learner: str, lang: str, console: Console | None = None) -> None:
    from rich.table import Table

    console = console or Console(highlight=False)
    prog = qprogress.progress(store, learner)
    for set_id in SET_ORDER:
        table = Table(title=tr(lang, f"Set {set_id}", f"{set_id} 组"), title_justify="left")
        for col in (tr(lang, "question", "题"), tr(lang, "attempts", "次数"), tr(lang, "answers", "作答"),
                    tr(lang, "streak", "连对"), tr(lang, "mastered", "掌握"), tr(lang, "time", "用时")):
            table.add_column(col)
        for q in qbank.questions(set_id):
            s = prog.questions[q.id]
            marks = "".join("✓" if ok else "✗" for ok in s.history[-12:])
            extra = ""
            if q.interview:
                p, t = prog.c_points[q.id]
                pa, ta = prog.c_all[q.id]
                extra = f" {p}/{t} " + tr(lang, f"key points, {pa}/{ta} with follow-ups", f"要点，含追问 {pa}/{ta}")
            table.add_row(f"{q.id} {q.title}", str(s.attempts), marks or "–", str(s.streak),
                          ("✓" if s.mastered else "") + extra, f"{s.seconds:.0f}s" if s.seconds else "")
        console.print(table)
    console.print(closed_book_line(prog, lang), highlight=False)
