"""``grader quiz`` through a real pseudo-terminal (pexpect), as a learner types it: set R and A6
answered right (with unit slips on the way, each named and re-entered without losing the attempt),
which masters nothing in one sitting; three days later (the file's clock moved back) they are due
and answered right again: mastered, level read; then three R items answered wrong: read -> none.
The right answers are computed here from the bank, for the graded variants the data folder's
secret draws."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from grader.course import levels  # noqa: E402
from grader.quiz import bank, course_text, progress, store  # noqa: E402
from tests import quiz_helpers  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HEADER = re.compile(r"── [RABC] \d+/\d+ · (\S+) · .*?(?:variant|第) (\d+)")
PROMPT = r"\n(?:\x1b\[[0-9;]*m)*> "  # the answer prompt (bold, without colour under NO_COLOR)


def secret(home) -> bytes:
    """The data folder's secret the graded variants are drawn from (made here first)."""
    st = store.Store(Path(home) / "toolbox-grader" / "quiz.sqlite")
    try:
        return st.secret()
    finally:
        st.close()


def days_pass(home, n):
    """A fake clock for a subprocess: every recorded answer moved ``n`` days into the past."""
    st = store.Store(Path(home) / "toolbox-grader" / "quiz.sqlite")
    st.db.execute("UPDATE answers SET at = at - ?", (n * store.DAY,))
    st.db.commit()
    st.close()


def spawn(args, home, log=None):
    secret(home)
    env = dict(
        os.environ,
        XDG_DATA_HOME=str(home),
        PYTHONPATH=str(ROOT),
        NO_COLOR="1",
        TERM="xterm",
        TOOLBOX_GRADER_LEARNER="pty-learner",
        COLUMNS="250",
        LANG="C.UTF-8",
    )
    child = pexpect.spawn(
        sys.executable,
        ["-m", "grader.cli", "quiz", *args],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=240,
        dimensions=(60, 250),
    )
    child.logfile_read = log  # everything the terminal showed
    return child


def answer_session(child, plan, transcript, home):
    """Answer every question the session asks: ``plan(qid, part_id)`` says right / wrong / slip."""
    seen, key = [], secret(home)
    while True:
        i = child.expect([HEADER, r"This session: \d+ answers", r"本次：作答 \d+ 个", pexpect.EOF])
        transcript.append(child.before + (child.after if isinstance(child.after, str) else ""))
        if i != 0:
            return seen
        qid, variant_no = child.match.group(1), int(child.match.group(2))
        q = bank.get(qid)
        v = q.variant(store.graded_seed(key, "pty-learner", qid, variant_no - 1))
        for part in v.parts():
            child.expect(PROMPT)
            answer, truth = v.answer(part), v.truth(part)
            what = plan(qid, part.id)
            if what == "slip":
                child.sendline(quiz_helpers.slip(answer, truth))
                child.expect(r"(not used up|不算数)")
                transcript.append(child.before)
                child.expect(PROMPT)
                what = "right"
            if what == "invalid":
                child.sendline(f"{float(truth) * 100:.4g}")  # a percentage for a fraction
                child.expect(r"(not a fraction|不是 0–1)")
                child.expect(PROMPT)
                what = "right"
            typed = (quiz_helpers.right if what == "right" else quiz_helpers.wrong)(answer, truth)
            child.sendline(typed)
            child.expect("✓" if what == "right" else "✗")
            seen.append((qid, part.id, what))


SLIPS = {
    ("R.decode_floor", "floor"): "slip",
    ("R.bytes_per_param", "total"): "slip",
    ("A6", "full"): "slip",
    ("A6", "lora"): "slip",
    ("R.ci95", "half_width"): "invalid",
}


def level(home) -> str:
    st = store.Store(Path(home) / "toolbox-grader" / "quiz.sqlite")
    try:
        return levels.summarize({}, quiz=progress.counts(progress.progress(st, "pty-learner"))).level
    finally:
        st.close()


def test_a_learner_at_a_terminal(tmp_path):
    home = tmp_path / "data"
    transcript: list[str] = []
    # Run 1: everything right, with slips on the way: one sitting masters nothing.
    child = spawn(["R", "A6", "--lang", "en"], home)
    seen = answer_session(child, lambda q, p: SLIPS.get((q, p), "right"), transcript, home)
    child.expect(pexpect.EOF)
    text = "".join(transcript)
    assert len({q for q, _, _ in seen}) == 13 and all(w != "wrong" for _, _, w in seen)
    assert "powers of 1024" in text  # A6: GiB for GB, named
    assert re.search(r"you typed s; check the unit", text)  # decode floor: ms typed as s
    assert "you typed bits" in text or "counted bits" in text
    assert level(home) == "none"

    # Run 2, three days later: everything is due, answered right again: mastered.
    days_pass(home, 3)
    child = spawn(["R", "A6", "--lang", "en"], home)
    seen = answer_session(child, lambda q, p: SLIPS.get((q, p), "right"), transcript, home)
    child.expect(pexpect.EOF)
    assert len({q for q, _, _ in seen}) == 13
    st = store.Store(home / "toolbox-grader" / "quiz.sqlite")
    rows = st.rows("pty-learner")
    assert all(r.correct for r in rows) and sum(bool(r.slips) for r in rows) == 8  # 4 slips per sitting
    prog = progress.progress(st, "pty-learner")
    assert prog.r == (12, 12) and prog.questions["A6"].mastered
    st.close()
    assert level(home) == "read"

    # Run 3: three recall items wrong: R falls to 9/12 mastered, below 80%.
    child = spawn(["R.ridge_point", "R.ci95", "R.decode_floor", "--lang", "en", "--rounds", "1"], home)
    seen = answer_session(child, lambda q, p: "wrong", transcript, home)
    child.expect(pexpect.EOF)
    assert [w for _, _, w in seen] == ["wrong"] * 3
    assert "this variant's value" in "".join(transcript[-4:])
    assert level(home) == "none"

    # Run 4, in Chinese: the same item right again the same day is not mastered again.
    import io

    from grader.quiz.session import plain

    log = io.StringIO()
    child = spawn(["R.ridge_point", "--lang", "zh", "--rounds", "1"], home, log)
    answer_session(child, lambda q, p: "right", transcript, home)
    child.expect(pexpect.EOF)
    shown = log.getvalue()
    assert "ridge point 是多少 FLOP/字节" in shown and "✓ 对" in shown and "回看：" in shown
    assert plain(course_text.MUST_REMEMBER[6][0]) in shown  # the course's words, verbatim (LaTeX as text)
    assert "本次：作答 1 个" in shown and "下次复习" in shown  # the sitting's summary, in Chinese
    assert level(home) == "none"


def test_piped_input_works_and_stops_at_the_end(tmp_path):
    import subprocess

    q = bank.get("A3")
    v = q.variant(store.graded_seed(secret(tmp_path), "pipe", "A3", 0))
    lines = [quiz_helpers.right(v.answer(p), v.truth(p)) for p in v.parts()]
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONPATH=str(ROOT), TOOLBOX_GRADER_LEARNER="pipe")
    out = subprocess.run(
        [sys.executable, "-m", "grader.cli", "quiz", "A3", "--lang", "en"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=240,
    )
    assert out.returncode == 0, out.stderr
    assert (
        out.stdout.count("✓") == len(lines)
        and (f"This session: {len(lines)} answers, {len(lines)} right") in out.stdout
    )
    assert "Next review: in 2 day(s)" in out.stdout
