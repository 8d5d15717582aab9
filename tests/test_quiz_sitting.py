"""A sitting as the tester took it at a terminal (issue 26's follow-up): what was typed while the
answers were computed is not read as the next answer (piped lines still are), a stop at the first
part of a new question resumes there, the course's key points are plain text, and every re-read
pointer names the heading its quoted line is under."""

from __future__ import annotations

import io
import os
import re

from rich.console import Console

from grader.quiz import bank, course_text, session
from tests.course_files import PART_7, course_dir
from tests.test_quiz_store import Clock, Scripted


class PtyStdin:
    """One end of a real pseudo-terminal as stdin: what is written to the other end is pending input."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        self.file = os.fdopen(self.slave, "r", buffering=1, closefd=False)

    def isatty(self):
        return os.isatty(self.slave)

    def fileno(self):
        return self.slave

    def type(self, text: str):
        os.write(self.master, text.encode())

    def close(self):
        self.file.close()
        os.close(self.master)
        os.close(self.slave)


def test_type_ahead_on_a_terminal_is_discarded_before_the_prompt():
    term = PtyStdin()
    try:
        term.type("typed while the answers were computed\n")  # before the prompt shows
        answers = []

        def read(_prompt):
            term.type("42\n")  # typed at the prompt
            return term.file.readline().rstrip("\n")

        io_ = session.IO(Console(file=io.StringIO()), read, echo=False, stdin=term)
        answers.append(io_.read("> "))
        assert answers == ["42"]
    finally:
        term.close()


def test_piped_answers_are_all_kept():
    r, w = os.pipe()
    os.write(w, b"first\nsecond\n")
    os.close(w)
    with os.fdopen(r) as pipe:
        io_ = session.IO(Console(file=io.StringIO()), lambda _p: pipe.readline().rstrip("\n"), echo=False, stdin=pipe)
        assert [io_.read(), io_.read()] == ["first", "second"]


def _sitting(st, plan, questions):
    out = io.StringIO()
    reader = Scripted(plan)
    sess = session.Session(st, "ada", "en", io=session.IO(Console(file=out, width=200), reader, echo=True), now=Clock())
    reader.sess = sess
    sess.run(questions, False)
    return out.getvalue()


def test_a_stop_at_the_first_part_of_a_new_question_resumes_there(st):  # noqa: F811
    """Quit before answering anything of R.ci95 (asked after R.bytes_per_param was done): the next run
    of set R starts at R.ci95, as "the next run resumes here" says, not at the set's first new question."""
    _sitting(st, ["right", "right", "quit"], [bank.get("R.bytes_per_param"), bank.get("R.ci95")])
    assert st.rows("ada", "R.ci95") == []
    text = _sitting(st, ["quit"], bank.questions("R"))
    assert "· R.ci95 ·" in text.split("──")[1], text.split("──")[1]
    text = _sitting(st, ["right"], bank.questions("R"))  # answered: the run goes on as usual
    assert "· R.ci95 ·" in text.split("──")[1]
    assert "· R.ci95 ·" not in _sitting(st, ["quit"], bank.questions("R")).split("──")[1]


def test_the_key_points_and_follow_ups_are_plain_text(st):  # noqa: F811
    for q in bank.questions("C"):
        out = io.StringIO()
        sess = session.Session(st, "ada", "zh", io=session.IO(Console(file=out, width=300), lambda _p: "q", echo=True))
        sess._interview_key(q, [], 0)
        text = out.getvalue()
        assert not re.search(r"\\[a-zA-Z(\[]|\\\)", text), (q.id, text)
    assert "全量 70 × 16 = 1120 GB" in session.plain(course_text.C_POINTS["C1"][1])


def _sections(text: str) -> dict[str, str]:
    """The review's text under each heading: "开头" (before §一), "一、…" …, and each part's "必记" list
    under §二 ("第二篇“必记”")."""
    lines = text.splitlines()
    out, name = {"开头": []}, "开头"
    for line in lines:
        if re.match(r"^[一二三四五六七]、", line):
            name = line.split("：")[0]
        elif m := re.match(r"^\d\. (第.篇)：", line):
            name = m.group(1)
        elif line.strip() == "必记：" and name.startswith("第"):
            name += "“必记”"
        elif re.match(r"^(常见误解|误解)", line.strip()) and name.endswith("“必记”"):
            name = name.removesuffix("“必记”") + "·后"
        out.setdefault(name, []).append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def test_every_re_read_pointer_names_the_heading_of_its_quoted_line():
    """R quotes a must-remember line (or the review's opening): the pointer's first heading holds it
    verbatim. A and B quote their 答案: the parts the pointer names are parts the 答案 itself cites.
    Every "第N篇“必记”" named is a heading the course has."""
    sections = _sections((course_dir() / PART_7).read_text(encoding="utf-8"))
    for q in bank.questions():
        zh = q.reread[1]
        named = re.findall(r"第.篇(?:“必记”)?|第 7 篇开头", zh)
        assert named, (q.id, zh)
        for name in named:
            assert name in sections or name == "第 7 篇开头" or name + "“必记”" in sections, (q.id, name)
        if q.set == "R":
            where = "开头" if named[0] == "第 7 篇开头" else named[0]
            assert where.endswith("“必记”") or where == "开头", (q.id, zh)
            assert q.answer_zh in sections[where], (q.id, zh, q.answer_zh[:40])
        elif q.set in "AB":
            cited = set(re.findall(r"第.篇", q.answer_zh))
            assert not cited or {n[:3] for n in named} <= cited, (q.id, zh, cited)


def test_a_closed_store_no_longer_serves_the_truth_cache(tmp_path):
    """A sitting's store closed (the CLI's finally, a test's fixture): a later truth computed in the
    same process is computed, not read from (or written to) the closed file."""
    from grader.quiz import store, truth

    s = store.Store(tmp_path / "quiz.sqlite")
    truth.set_cache(s.cache_get, s.cache_put)
    s.close()
    try:
        calls = []
        assert truth._cached("closed-store-probe", (tmp_path.name,), lambda: calls.append(1) or 7) == 7
        assert calls == [1]
    finally:
        truth.set_cache(None, None)


def test_a_course_answer_waits_for_the_question_it_answers(st):  # noqa: F811
    """An ML learner: after R.einsum_qk the course's answer read 'PV is "bts,bsd->btd"', and the very
    next question, R.einsum_pv, asked exactly that. It is shown once R.einsum_pv is answered; a sitting
    stopped before then never shows it, not even among the wrong answers."""
    qk, pv = bank.get("R.einsum_qk"), bank.get("R.einsum_pv")
    text = _sitting(st, ["wrong", "right"], [qk, pv])
    before_pv = text.split("· R.einsum_pv ·")[0]
    assert "bts,bsd->btd" not in before_pv and "R.einsum_pv" in before_pv, before_pv
    assert "bts,bsd->btd" in text.split("· R.einsum_pv ·")[1]
    stopped = _sitting(st, ["wrong", "quit"], [qk, pv])
    assert "bts,bsd->btd" not in stopped, stopped
