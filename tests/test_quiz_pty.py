"""``grader quiz`` through a real pseudo-terminal (pexpect), as a learner types it: set R and A6
answered right (with unit slips on the way, each named and re-entered without losing the attempt),
then three R items answered wrong; the level recorded from the quiz moves read -> none. The right
answers are computed here from the bank, for the variants the learner's seed draws."""

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
SEED = 5
PROMPT = r"\n(?:\x1b\[[0-9;]*m)*> "  # the answer prompt (bold, without colour under NO_COLOR)


def own_seed(home, learner):
    """The learner's own seed fixed in its store (a --seed run would be practice, not recorded)."""
    st = store.Store(Path(home) / "toolbox-grader" / "quiz.sqlite")
    st.set_learner_seed(learner, SEED)
    st.close()


def spawn(args, home, log=None):
    own_seed(home, "pty-learner")
    env = dict(os.environ, XDG_DATA_HOME=str(home), PYTHONPATH=str(ROOT), NO_COLOR="1", TERM="xterm",
               TOOLBOX_GRADER_LEARNER="pty-learner", COLUMNS="250", LANG="C.UTF-8")
    child = pexpect.spawn(sys.executable, ["-m", "grader.cli", "quiz", *args], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=240, dimensions=(60, 250))
    child.logfile_read = log  # everything the terminal showed
    return child


def answer_session(child, plan, transcript):
    """Answer every question the session asks: ``plan(qid, part_id)`` says right / wrong / slip."""
    seen = []
    while True:
        i = child.expect([HEADER, r"This session: \d+ answers", r"本次：作答 \d+ 个", pexpect.EOF])
        transcript.append(child.before + (child.after if isinstance(child.after, str) else ""))
        if i != 0:
            return seen
        qid, variant_no = child.match.group(1), int(child.match.group(2))
        q = bank.get(qid)
        v = q.variant(bank.variant_seed(SEED, qid, variant_no - 1))
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


SLIPS = {("R.decode_floor", "floor"): "slip", ("R.bytes_per_param", "total"): "slip", ("A6", "full"): "slip",
         ("A6", "lora"): "slip", ("R.ci95", "half_width"): "invalid"}


def level(home) -> str:
    st = store.Store(Path(home) / "toolbox-grader" / "quiz.sqlite")
    try:
        return levels.summarize({}, quiz=progress.counts(progress.progress(st, "pty-learner"))).level
    finally:
        st.close()


def test_a_learner_at_a_terminal(tmp_path):
    home = tmp_path / "data"
    transcript: list[str] = []
    # Run 1: everything right, two rounds (two variants each: mastered), with slips on the way.
    child = spawn(["R", "A6", "--lang", "en"], home)
    seen = answer_session(child, lambda q, p: SLIPS.get((q, p), "right"), transcript)
    child.expect(pexpect.EOF)
    text = "".join(transcript)
    assert len({q for q, _, _ in seen}) == 13 and all(w != "wrong" for _, _, w in seen)
    assert "powers of 1024" in text  # A6: GiB for GB, named
    assert re.search(r"you typed s; check the unit", text)  # decode floor: ms typed as s
    assert "you typed bits" in text or "counted bits" in text
    st = store.Store(home / "toolbox-grader" / "quiz.sqlite")
    rows = st.rows("pty-learner")
    assert all(r.correct for r in rows) and sum(bool(r.slips) for r in rows) == 8  # 4 slips per round
    prog = progress.progress(st, "pty-learner")
    assert prog.r == (12, 12) and prog.questions["A6"].mastered
    st.close()
    assert level(home) == "read"

    # Run 2: three recall items wrong: R falls to 9/12 mastered, below 80%.
    child = spawn(["R.ridge_point", "R.ci95", "R.decode_floor", "--lang", "en", "--rounds", "1"], home)
    seen = answer_session(child, lambda q, p: "wrong", transcript)
    child.expect(pexpect.EOF)
    assert [w for _, _, w in seen] == ["wrong"] * 3
    assert "this variant's value" in "".join(transcript[-4:])
    assert level(home) == "none"

    # Run 3, in Chinese: the same item right again; one right variant is not yet mastered.
    import io

    log = io.StringIO()
    child = spawn(["R.ridge_point", "--lang", "zh", "--rounds", "1"], home, log)
    answer_session(child, lambda q, p: "right", transcript)
    child.expect(pexpect.EOF)
    shown = log.getvalue()
    assert "ridge point 是多少 FLOP/字节" in shown and "✓ 对" in shown and "回看：" in shown
    assert course_text.MUST_REMEMBER[6][0] in shown  # the course's words, verbatim
    assert level(home) == "none"


def test_piped_input_works_and_stops_at_the_end(tmp_path):
    import subprocess

    q = bank.get("A3")
    v = q.variant(bank.variant_seed(SEED, "A3", 0))
    lines = [quiz_helpers.right(v.answer(p), v.truth(p)) for p in v.parts()]
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONPATH=str(ROOT), TOOLBOX_GRADER_LEARNER="pipe")
    own_seed(tmp_path, "pipe")
    out = subprocess.run([sys.executable, "-m", "grader.cli", "quiz", "A3", "--lang", "en"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, env=env, cwd=ROOT, timeout=240)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("✓") == len(lines) and "Stopped" in out.stdout  # round 2 met the end of input
