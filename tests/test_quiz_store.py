"""The quiz's record and mastery: one row per answer in SQLite in the user's data folder, mastered
after two right variants in a row, a wrong answer bringing a new variant, a stopped run resuming
the same variant; the notebook's ``ask``; ``--history``; the levels taking the quiz's counts."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from grader.course import levels
from grader.quiz import bank, progress, session, store
from tests import quiz_helpers

CHEAP = ["R.ridge_point", "R.ci95", "A4", "A3"]


class Scripted:
    """A learner who reads the question being asked (session.current) and types per a plan."""

    def __init__(self, plan):
        self.plan = list(plan)  # "right", "wrong", "slip", "quit" per sub-answer
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
        variant, part, answer, future = self.sess.current
        future.result()  # the session's worker has computed the right answers
        truth = variant.truth(part)
        if what == "slip":
            typed = quiz_helpers.slip(answer, truth)
            assert typed is not None, (part.id, answer)
            self.pending.append(quiz_helpers.right(answer, truth))
            return typed
        return (quiz_helpers.right if what == "right" else quiz_helpers.wrong)(answer, truth)


def run(st, plan, targets, *, seed=3, lang="en", rounds=1, learner="ada"):
    out = io.StringIO()
    reader = Scripted(plan)
    st.set_learner_seed(learner, seed)  # the learner's own seed, fixed: its answers are recorded
    sess = session.Session(st, learner, lang, io=session.IO(Console(file=out, width=200), reader, echo=True),
                           rounds=rounds)
    reader.sess = sess
    qs, explicit = session.expand_targets(targets)
    sess.run(qs, explicit)
    return out.getvalue()


@pytest.fixture
def st(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    s = store.Store()
    yield s
    s.close()


def test_attempts_live_in_the_users_data_folder(st, tmp_path):
    assert st.path == tmp_path / "data" / "toolbox-grader" / "quiz.sqlite"
    run(st, ["right"], ["R.ridge_point"])
    (row,) = st.rows("ada")
    assert (row.question, row.part, row.attempt, row.correct) == ("R.ridge_point", "ridge", 0, True)
    assert row.seconds >= 0 and row.variant_seed == bank.variant_seed(3, "R.ridge_point", 0)


def test_mastered_after_two_right_variants_in_a_row(st):
    q = "R.ridge_point"
    run(st, ["right"], [q])
    assert not progress.progress(st, "ada").questions[q].mastered
    run(st, ["right"], [q])
    assert progress.progress(st, "ada").questions[q].mastered
    run(st, ["wrong"], [q])  # a wrong answer ends the streak
    state = progress.progress(st, "ada").questions[q]
    assert not state.mastered and state.history == [True, True, False]
    seeds = [r.variant_seed for r in st.rows("ada", q)]
    assert len(set(seeds)) == 3  # every try is a new variant


def test_two_rounds_master_a_question_in_one_run(st):
    text = run(st, ["right", "right"], ["R.ci95"], rounds=2)
    assert "mastered" in text and progress.progress(st, "ada").questions["R.ci95"].mastered


def test_a_unit_slip_is_named_and_the_attempt_kept(st):
    text = run(st, ["slip", "right"], ["A6"])  # the GiB/GB slip on the first sub-answer, then right
    assert "powers of 1024" in text
    rows = {r.part: r for r in st.rows("ada", "A6")}
    assert rows["full"].correct and len(rows["full"].slips) == 1 and len(st.rows("ada", "A6")) == 2


def test_a_stopped_question_resumes_with_the_same_variant(st):
    run(st, ["right", "quit"], ["A6"])
    (first,) = st.rows("ada", "A6")
    text = run(st, ["right", "right", "right"], ["A6"])
    rows = st.rows("ada", "A6")
    assert [r.part for r in rows] == ["full", "full_fits", "lora", "lora_fits"]
    assert {r.attempt for r in rows} == {0} and {r.variant_seed for r in rows} == {first.variant_seed}
    assert "variant 1" in text


def test_c_is_an_interview_of_sub_questions(st):
    q = bank.get("C6")
    n = len(q.all_parts)
    text = run(st, ["right"] * n, ["C6"])
    assert "key points" in text and "(1) " in text  # the key points come after, not before
    before = text.index("[1/")
    assert "多 seed 报均值与标准差" not in text[:before]
    rows = st.rows("ada", "C6")
    assert len(rows) == n and all(r.correct for r in rows)
    run(st, ["right"] * n, ["C6"])
    prog = progress.progress(st, "ada")
    assert prog.c_points["C6"] == (5, 5) and prog.c_all["C6"][0] == prog.c_all["C6"][1]


def test_c_second_interview_asks_only_what_is_not_mastered(st):
    q = bank.get("C6")
    n = len(q.all_parts)
    run(st, ["wrong"] + ["right"] * (n - 1), ["C6"])
    run(st, ["right"] * n, ["C6"])
    run(st, ["right"] * n, ["C6"])  # only the first sub-question is not mastered now
    last = max(r.attempt for r in st.rows("ada", "C6"))
    assert [r.part for r in st.rows("ada", "C6") if r.attempt == last] == [q.all_parts[0].id]


def test_history_shows_progress(st):
    run(st, ["right", "wrong"], ["R.ridge_point", "R.ci95"])
    out = io.StringIO()
    session.print_history(st, "ada", "en", Console(file=out, width=200))
    text = out.getvalue()
    assert "R.ridge_point" in text and "✓" in text and "✗" in text and "Mastered in the quiz" in text


def test_notebook_ask_uses_plain_input(st, monkeypatch, capsys):
    from grader import quiz

    q = bank.get("R.ridge_point")
    v = q.variant(bank.variant_seed(9, q.id, 0))
    (part,) = v.parts()
    monkeypatch.setattr("builtins.input", lambda prompt="": quiz_helpers.right(v.answer(part), v.truth(part)))
    st.set_learner_seed("nb", 9)
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
    full = levels.QuizCounts(counts.r[1:] * 2, counts.a[1:] * 2, counts.b[1:] * 2,
                             {k: (t, t) for k, (_, t) in counts.c_points.items()},
                             {k: (t, t) for k, (_, t) in counts.c_all.items()})
    assert levels.summarize(everything, quiz=full).level == "can-teach"
    assert levels.summarize({}, quiz=full).level == "read"  # P1-P4 are done in code
    half = levels.QuizCounts((10, 12), (8, 10), (4, 5), {k: (-(-t // 2), t) for k, (_, t) in counts.c_points.items()},
                             dict(counts.c_all))
    s = levels.summarize(everything, quiz=half)
    assert s.level == "mastered" and s.pass_line
    assert all(n.startswith("[quiz] C") for n in s.next_level_needs)
    low = levels.QuizCounts((9, 12), (8, 10), (4, 5), full.c_points, full.c_all)
    assert levels.summarize(everything, quiz=low).level == "none"


def test_reports_show_both_sources(st):
    from grader.reports import html, terminal

    everything = {ex.id: {kp.id: True for kp in ex.key_points} for ex in levels.catalog.CATALOG}
    run(st, ["right"], ["R.ridge_point"])
    s = levels.summarize(everything, quiz=progress.counts(progress.progress(st, "ada")))
    lines = "\n".join(terminal.mastery_lines(s))
    assert "Quiz (closed book" in lines and "Code (P, X" in lines and "level from the code alone: can-teach" in lines
    assert "[quiz] R: 0/12 items mastered in the quiz, need 10" in lines and "1 answer)" in lines
    out = io.StringIO()
    terminal.print_report({}, s, Console(file=out, width=120))
    assert "[quiz] R: 0/12" in out.getvalue()
    page = html.render({}, s)
    assert "Quiz (closed book" in page and "<td>quiz</td>" in page and "<td>code</td>" in page
    code_only = "\n".join(terminal.mastery_lines(levels.summarize(everything)))
    assert "Quiz" not in code_only and "Level: can-teach" in code_only


def test_resuming_with_another_seed_keeps_the_begun_variant(st):
    run(st, ["right", "quit"], ["A6"], seed=3)
    run(st, ["right", "right", "right"], ["A6"], seed=99)
    rows = st.rows("ada", "A6")
    assert len(rows) == 4 and len({r.variant_seed for r in rows}) == 1
    run(st, ["right"] * 4, ["A6"], seed=99)  # a new attempt follows the seed given now
    assert st.rows("ada", "A6")[-1].variant_seed == bank.variant_seed(99, "A6", 1)


def test_a_seeded_run_is_practice_and_counts_toward_nothing(st):
    """--seed draws numbers anyone can draw again (a preview of the variant): nothing recorded."""
    q = bank.get("R.ridge_point")
    out = io.StringIO()
    reader = Scripted(["right"] * 4)
    sess = session.Session(st, "ada", "en", seed=7, io=session.IO(Console(file=out, width=200), reader, echo=True),
                           rounds=2)
    reader.sess = sess
    sess.run([q], True)
    assert "Practice (--seed)" in out.getvalue()
    assert st.rows("ada", q.id) == []
    assert not progress.question_state(q, st.rows("ada", q.id)).mastered
