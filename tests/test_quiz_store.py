"""The quiz's record and spaced review: one row per answer in SQLite in the user's data folder, each
question (C: each sub-question) an FSRS card replayed from its rows, mastered only when recalled
right days after the review before (a fake clock: a simulated week), graded variants from the data
folder's secret, a stopped run resuming at the question and part where it stopped, the sitting's
summary; the notebook's ``ask``; ``--history``; the levels taking the quiz's counts; old files migrated."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import stat

import pytest
from hypothesis import given, strategies as st_
from rich.console import Console

from grader.course import levels
from grader.quiz import bank, course_text, progress, session, store
from grader.quiz.answers import echo_phrases
from tests import quiz_helpers

DAY = store.DAY
T0 = 1_800_000_000.0  # the fake clock's first day


class Clock:
    def __init__(self, t=T0):
        self.t = t

    def __call__(self):
        return self.t

    def days(self, n):
        self.t += n * DAY


class Scripted:
    """A learner who reads the question being asked (session.current) and types per a plan."""

    def __init__(self, plan):
        self.plan = list(plan)  # "right", "wrong", "slip", "quit", or a literal "=text" per entry
        self.sess = None
        self.pending: list[str] = []

    def __call__(self, _prompt=""):
        if self.pending:
            return self.pending.pop(0)
        if not self.plan:
            raise EOFError
        what = self.plan.pop(0)
        if what == "quit":
            return "q"
        if what.startswith("="):
            return what[1:]
        variant, part, answer, future = self.sess.current
        future.result()  # the session's worker has computed the right answers
        truth = variant.truth(part)
        if what == "echo":  # the course's Chinese echo form: 重叠 / 不重叠
            word = echo_phrases(answer.echo)[-1][0][-2:]
            return word if truth else "不" + word
        if what == "slip":
            typed = quiz_helpers.slip(answer, truth)
            assert typed is not None, (part.id, answer)
            self.pending.append(quiz_helpers.right(answer, truth))
            return typed
        return (quiz_helpers.right if what == "right" else quiz_helpers.wrong)(answer, truth)


def run(st, plan, targets, *, lang="en", rounds=1, learner="ada", clock=None, explicit=None):
    out = io.StringIO()
    reader = Scripted(plan)
    sess = session.Session(
        st,
        learner,
        lang,
        io=session.IO(Console(file=out, width=200), reader, echo=True),
        rounds=rounds,
        now=clock or Clock(),
    )
    reader.sess = sess
    qs, named = session.expand_targets(targets)
    sess.run(qs, named if explicit is None else explicit)
    return out.getvalue()


def graded(st, qid, k, learner="ada"):
    return store.graded_seed(st.secret(), learner, qid, k)


def test_attempts_live_in_the_users_data_folder(st, tmp_path):
    assert st.path == tmp_path / "data" / "toolbox-grader" / "quiz.sqlite"
    clock = Clock()
    run(st, ["right"], ["R.ridge_point"], clock=clock)
    (row,) = st.rows("ada")
    assert (row.question, row.part, row.attempt, row.correct) == ("R.ridge_point", "ridge", 0, True)
    assert row.seconds >= 0 and row.at == T0 and row.variant_seed == graded(st, "R.ridge_point", 0)


def test_graded_variants_come_from_a_secret_only_its_owner_reads(st):
    secret = st.secret()
    assert len(secret) == 32 and stat.S_IMODE(os.stat(st.secret_path).st_mode) == 0o600
    assert st.secret() == secret  # made once
    # nothing in the SQLite file can reproduce a variant: no learner seed is stored
    tables = {r[0] for r in st.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "learners" not in tables


@given(st_.integers(0, 2**63), st_.text(max_size=8), st_.integers(0, 50))
def test_practice_seeds_never_coincide_with_a_graded_variant(seed, learner, k):
    secret = bytes(range(32))
    for qid in ("A6", "R.ci95"):
        assert store.practice_seed(seed, qid, k) != store.graded_seed(secret, learner, qid, k)
        assert store.practice_seed(seed, qid, k) % 2 == 0 and store.graded_seed(secret, learner, qid, k) % 2 == 1


def test_mastery_default_is_fsrs_first_interval():
    assert store.default_mastery_days() == 2.0  # FSRS-6's default parameters: a first Good -> 2 days


def test_mastered_only_when_recalled_right_days_later(st):
    q, clock = "R.ridge_point", Clock()
    run(st, ["right"], [q], clock=clock)
    run(st, ["right"], [q], clock=clock)  # twice in one sitting's day: short-term memory
    assert not progress.progress(st, "ada").questions[q].mastered
    clock.days(1)
    run(st, ["right"], [q], clock=clock)  # a day after the review before: not yet the interval
    assert not progress.progress(st, "ada").questions[q].mastered
    clock.days(2)
    run(st, ["right"], [q], clock=clock)
    state = progress.progress(st, "ada").questions[q]
    assert state.mastered and state.due > clock.t + 2 * DAY  # the interval grows
    clock.days(1)
    run(st, ["wrong"], [q], clock=clock)  # a lapse: not mastered until recalled after days again
    state = progress.progress(st, "ada").questions[q]
    assert not state.mastered and state.history[-1] is False
    assert len({r.variant_seed for r in st.rows("ada", q)}) == 5  # every try is a new variant


def test_a_right_answer_after_a_slip_is_reviewed_sooner():
    clean, slipped = store.memory([store.Review(T0, True, 0)]), store.memory([store.Review(T0, True, 1)])
    wrong = store.memory([store.Review(T0, False, 0)])
    assert wrong.stability < slipped.stability < clean.stability and slipped.due < clean.due  # Again < Hard < Good


def test_an_echo_answer_is_taken_in_the_session(st):
    text = run(st, ["echo", "quit"], ["C6"], lang="zh")
    (row,) = st.rows("ada", "C6")
    assert row.part == "bands" and row.correct and row.answer in ("重叠", "不重叠"), text


def test_the_interval_is_a_setting(st, monkeypatch):
    monkeypatch.setenv(store.MASTERY_DAYS_ENV, "1.5")
    q, clock = "R.ridge_point", Clock()
    run(st, ["right"], [q], clock=clock)
    clock.t += 1.6 * DAY
    run(st, ["right"], [q], clock=clock)
    assert progress.progress(st, "ada").questions[q].mastered


def test_a_simulated_week_asks_what_is_due_then_new(st):
    """make quiz over a week: day 0 both questions are new; day 1 only the wrong one is due (and right
    a day later is not yet mastered); day 3 both are due, recalled right 2+ days after the review
    before: mastered; day 4 nothing is due, nothing is asked."""
    clock, targets = Clock(), ["R.ridge_point", "R.ci95"]
    run(st, ["right", "wrong"], targets, clock=clock, explicit=False)
    assert [r.question for r in st.rows("ada")] == targets
    clock.days(1)
    text = run(st, ["right", "right"], targets, clock=clock, explicit=False)
    assert [r.question for r in st.rows("ada")][2:] == ["R.ci95"]  # the wrong one, due after a day
    assert "Next review" in text
    assert not progress.progress(st, "ada").questions["R.ci95"].mastered
    clock.days(2)
    run(st, ["right", "right"], targets, clock=clock, explicit=False)
    assert {r.question for r in st.rows("ada")[3:]} == set(targets)  # both due now
    prog = progress.progress(st, "ada")
    assert prog.questions["R.ridge_point"].mastered and prog.questions["R.ci95"].mastered
    clock.days(1)
    n = len(st.rows("ada"))
    text = run(st, [], targets, clock=clock, explicit=False)
    assert len(st.rows("ada")) == n and "Nothing is due now" in text
    assert progress.counts(prog).r[0] == 2


def test_a_second_round_re_asks_the_wrong_answers_and_masters_nothing(st):
    clock = Clock()
    text = run(st, ["wrong", "right"], ["R.ci95"], rounds=2, clock=clock)
    assert "Round 2" in text and [r.correct for r in st.rows("ada", "R.ci95")] == [False, True]
    assert not progress.progress(st, "ada").questions["R.ci95"].mastered


def test_a_unit_slip_is_named_and_the_attempt_kept(st):
    text = run(st, ["slip", "right"], ["A6"])  # the GiB/GB slip on the first sub-answer, then right
    assert "powers of 1024" in text
    rows = {r.part: r for r in st.rows("ada", "A6")}
    assert rows["full"].correct and len(rows["full"].slips) == 1 and len(st.rows("ada", "A6")) == 2


@pytest.mark.parametrize("bad", ["", "-3 GB", "1e300 GB"])
def test_an_impossible_value_is_typed_again_without_costing_the_attempt(st, bad):
    text = run(st, ["=" + bad, "right", "quit"], ["A6"])
    (row,) = st.rows("ada", "A6")
    assert row.correct and "Type it again" in text


def test_a_stopped_run_resumes_at_the_question_and_part(st):
    """Stopped in A6's second sub-question: the next run (all of set A) starts there, not at A1."""
    run(st, ["right", "quit"], ["A6"])
    (first,) = st.rows("ada", "A6")
    out = io.StringIO()
    reader = Scripted(["right", "quit"])
    sess = session.Session(st, "ada", "en", io=session.IO(Console(file=out, width=200), reader, echo=True), now=Clock())
    reader.sess = sess
    sess.run(bank.questions("A"), False)
    rows = st.rows("ada", "A6")
    assert [r.part for r in rows] == ["full", "full_fits"] and rows[1].variant_seed == first.variant_seed
    assert "· A6 ·" in out.getvalue().split("──")[1]  # the first question asked


def test_c_is_an_interview_of_sub_questions(st):
    q = bank.get("C6")
    n = len(q.all_parts)
    clock = Clock()
    text = run(st, ["right"] * n, ["C6"], clock=clock)
    assert "key points" in text and "(1) " in text  # the key points come after, not before
    before = text.index("[1/")
    assert "多 seed 报均值与标准差" not in text[:before]
    rows = st.rows("ada", "C6")
    assert len(rows) == n and all(r.correct for r in rows)
    assert progress.progress(st, "ada").c_points["C6"] == (0, 5)  # one sitting masters nothing
    clock.days(3)
    run(st, ["right"] * n, ["C6"], clock=clock)
    prog = progress.progress(st, "ada")
    assert prog.c_points["C6"] == (5, 5) and prog.c_all["C6"][0] == prog.c_all["C6"][1]


def test_c_second_interview_asks_only_what_is_due(st):
    q = bank.get("C6")
    n = len(q.all_parts)
    clock = Clock()
    run(st, ["wrong"] + ["right"] * (n - 1), ["C6"], clock=clock)
    clock.days(1)  # the wrong sub-question is due after a day, the right ones after two
    run(st, ["right"] * n, ["C6"], clock=clock)
    last = max(r.attempt for r in st.rows("ada", "C6"))
    assert [r.part for r in st.rows("ada", "C6") if r.attempt == last] == [q.all_parts[0].id]


def test_the_sitting_ends_with_a_summary_and_the_wrong_answers_reviewed(st):
    text = run(st, ["wrong", "slip", "right"], ["R.ridge_point", "R.decode_floor"])
    tail = text[text.index("This session") :]
    assert "2 answers, 1 right, 1 wrong, 1 slip(s)" in tail and "Next review: in 1 day(s)" in tail
    assert "Your wrong answers, to review" in tail and "R.ridge_point" in tail
    assert session.plain(bank.get("R.ridge_point").answer_zh) in tail  # the course's 答案
    zh = run(st, ["wrong"], ["R.ci95"], lang="zh")
    assert "答错的题，复习一下" in zh and "本次：作答 1 个" in zh and "下次复习" in zh


def test_no_raw_latex_in_what_the_learner_reads():
    for text in list(course_text.ANSWERS.values()) + [x for v in course_text.MUST_REMEMBER.values() for x in v]:
        shown = session.plain(text)
        assert "\\" not in shown and "\\(" not in shown, shown
    assert session.plain("\\(3 \\times 16 = 48\\) GB") == "3 × 16 = 48 GB"


def test_history_shows_the_next_review_and_where_the_counts_come_from(st):
    clock = Clock()
    run(st, ["right", "wrong"], ["R.ridge_point", "R.ci95"], clock=clock)
    out = io.StringIO()
    session.print_history(st, "ada", "en", Console(file=out, width=250), now=clock.t)
    text = out.getvalue()
    assert "R.ridge_point" in text and "✓" in text and "✗" in text and "Mastered in the quiz" in text
    assert "in 2 day(s)" in text and "in 1 day(s)" in text and "new" in text
    assert str(st.path) in text and "can be edited" in text


def test_an_older_file_is_migrated_and_its_answers_count(tmp_path, monkeypatch):
    monkeypatch.delenv(store.MASTERY_DAYS_ENV, raising=False)
    path = tmp_path / "quiz.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE learners (name TEXT PRIMARY KEY, seed INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE answers (id INTEGER PRIMARY KEY AUTOINCREMENT, learner TEXT NOT NULL, question TEXT NOT NULL,
    part TEXT NOT NULL, attempt INTEGER NOT NULL, n_parts INTEGER NOT NULL, variant_seed INTEGER NOT NULL,
    params TEXT NOT NULL, answer TEXT NOT NULL, value TEXT, expected TEXT, correct INTEGER NOT NULL,
    slips TEXT NOT NULL, seconds REAL NOT NULL, lang TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE truth_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, at REAL NOT NULL);""")
    db.execute("INSERT INTO learners VALUES ('ada', 12345, 0)")
    for k, at in enumerate((T0, T0 + 60, T0 + 3 * DAY)):
        db.execute(
            "INSERT INTO answers (learner, question, part, attempt, n_parts, variant_seed, params, answer, "
            "value, expected, correct, slips, seconds, lang, at) VALUES ('ada', 'R.ci95', 'half_width', ?, 1, "
            "?, '{}', '5%', '0.05', '0.05', 1, '[]', 3.0, 'en', ?)",
            (k, 100 + k, at),
        )
    db.commit()
    db.close()
    s = store.Store(path)
    try:
        tables = {r[0] for r in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "learners" not in tables  # the plain seeds that previewed the graded variants
        assert s.db.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
        state = progress.progress(s, "ada").questions["R.ci95"]
        assert state.history == [True, True, True] and state.mastered  # right 3 days after the review before
    finally:
        s.close()


def test_notebook_ask_uses_plain_input(st, monkeypatch, capsys):
    from grader import quiz

    q = bank.get("R.ridge_point")
    v = q.variant(store.graded_seed(st.secret(), "nb", q.id, 0))
    (part,) = v.parts()
    monkeypatch.setattr("builtins.input", lambda prompt="": quiz_helpers.right(v.answer(part), v.truth(part)))
    result = quiz.ask("R.ridge_point", learner="nb", db=str(st.path))
    assert result == {"question": "R.ridge_point", "result": "right", "mastered": False}
    assert len(st.rows("nb", "R.ridge_point")) == 1
    assert "ridge point" in capsys.readouterr().out


def test_levels_take_the_closed_book_criteria_from_the_quiz(st):
    everything = {ex.id: {kp.id: True for kp in ex.key_points} for ex in levels.catalog.CATALOG}
    assert levels.summarize(everything).level == "can-teach"  # code alone: the classroom's counting
    counts = progress.counts(progress.progress(st, "ada"))
    s = levels.summarize(everything, quiz=counts)
    assert s.level == "none" and s.code_level == "can-teach"
    assert s.next_level_needs[0].startswith("[quiz] R:")
    d = s.to_dict()
    assert d["level_sources"].startswith("quiz") and d["quiz"]["R"] == "0/12" and d["code_level"] == "can-teach"
    json.dumps(d)
    full = levels.QuizCounts(
        counts.r[1:] * 2,
        counts.a[1:] * 2,
        counts.b[1:] * 2,
        {k: (t, t) for k, (_, t) in counts.c_points.items()},
        {k: (t, t) for k, (_, t) in counts.c_all.items()},
    )
    assert levels.summarize(everything, quiz=full).level == "can-teach"
    assert levels.summarize({}, quiz=full).level == "read"  # P1-P4 are done in code
    half = levels.QuizCounts(
        (10, 12), (8, 10), (4, 5), {k: (-(-t // 2), t) for k, (_, t) in counts.c_points.items()}, dict(counts.c_all)
    )
    s = levels.summarize(everything, quiz=half)
    assert s.level == "mastered" and s.pass_line
    assert all(n.startswith("[quiz] C") for n in s.next_level_needs)
    low = levels.QuizCounts((9, 12), (8, 10), (4, 5), full.c_points, full.c_all)
    assert levels.summarize(everything, quiz=low).level == "none"


def test_reports_show_both_sources(st):
    from grader.reports import html, terminal

    everything = {ex.id: {kp.id: True for kp in ex.key_points} for ex in levels.catalog.CATALOG}
    run(st, ["right"], ["R.ridge_point"])
    s = levels.summarize(everything, quiz=progress.counts_for("ada", st.path))
    lines = "\n".join(terminal.mastery_lines(s))
    assert f"from {st.path}, your own editable file" in lines  # where the counts come from
    assert "Quiz (closed book" in lines and "Code (P, X" in lines and "level from the code alone: can-teach" in lines
    assert "[quiz] R: 0/12 items mastered in the quiz, need 10" in lines and "(ada, 1 answer; from " in lines
    out = io.StringIO()
    terminal.print_report({}, s, Console(file=out, width=120))
    assert "[quiz] R: 0/12" in out.getvalue()
    page = html.render({}, s)
    assert "Quiz (closed book" in page and "<td>quiz</td>" in page and "<td>code</td>" in page
    code_only = "\n".join(terminal.mastery_lines(levels.summarize(everything)))
    assert "Quiz" not in code_only and "Level: can-teach" in code_only


def test_resuming_keeps_the_begun_variant(st):
    run(st, ["right", "quit"], ["A6"])
    run(st, ["right", "right", "right"], ["A6"])
    rows = st.rows("ada", "A6")
    assert len(rows) == 4 and len({r.variant_seed for r in rows}) == 1 == len({r.attempt for r in rows})
    run(st, ["right"] * 4, ["A6"])  # a new attempt, a new graded variant
    assert st.rows("ada", "A6")[-1].variant_seed == graded(st, "A6", 1)


def test_a_seeded_run_is_practice_and_counts_toward_nothing(st):
    """--seed draws numbers anyone can draw again: nothing recorded, and never a graded variant."""
    q = bank.get("R.ridge_point")
    out = io.StringIO()
    reader = Scripted(["right"] * 4)
    sess = session.Session(
        st, "ada", "en", seed=7, io=session.IO(Console(file=out, width=200), reader, echo=True), rounds=2
    )
    reader.sess = sess
    sess.run([q], True)
    assert "Practice (--seed)" in out.getvalue()
    assert st.rows("ada", q.id) == []
    assert sess.variant_seed(q.id, 0) == store.practice_seed(7, q.id, 0) != graded(st, q.id, 0)
