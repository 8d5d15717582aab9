"""grader/given/ is learner-visible: its comments and docstrings hold no part of an answer (the
code of a loop the drivers run in the learner's process is unavoidable and says so)."""

from __future__ import annotations

import ast
import io
import tokenize

import pytest

from grader.course.catalog import ROOT

# (file, what its comments and docstrings must not say): R's ignore index, B3/X5's conclusion,
# P2/C5's loop steps, X1's answer
WITHHELD = {
    "sft.py": ("-100", "ignored", "5/6", "0/6", "6/6", "EOS masked", "set_to_none", "clip"),
    "cpu_work.py": ("GIL", "processes", "multiprocessing", "thread", "interpreter lock", "releases", "parallel"),
}


def _prose(path) -> str:
    text = path.read_text()
    comments = [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]
    docs = [
        ast.get_docstring(n) or ""
        for n in ast.walk(ast.parse(text))
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
    ]
    return "\n".join(comments + docs)


@pytest.mark.parametrize("name", sorted(WITHHELD))
def test_given_prose_withholds_answers(name):
    prose = _prose(ROOT / "grader" / "given" / name)
    found = [w for w in WITHHELD[name] if w in prose]
    assert not found, f"grader/given/{name} says {found} in a comment or docstring"


def test_the_sft_loop_is_out_of_learner_view():
    """Issue 23: the loop's steps in order (clip, step, zero_grad) are P2's and C5's answer; the
    SFT run's loop lives with the checks (grader/checks/truth/sft.py), code included."""
    src = (ROOT / "grader" / "given" / "sft.py").read_text()
    assert not [w for w in ("clip_grad_norm_", "zero_grad", ".step()", "def train(") if w in src]


def test_what_a_given_module_raises_reads_in_chinese():
    """Issue 24: the learner's process has no catalog; what a given module raises (grader/given/said.py)
    is read back through it, so a Chinese learner meets no English sentence of ours."""
    import torch

    from grader.given import said
    from grader.given.char_model import GPT, GPTConfig
    from grader.i18n import show
    from grader.isolation.learner import GIVEN_SAYS, LearnerRaised
    from tests.english import english_sentences

    assert set(GIVEN_SAYS) == set(said.TEMPLATES)
    model = GPT(GPTConfig(block_size=8, n_layer=1, n_head=1, n_embd=8))
    with pytest.raises(ValueError) as raised:
        model(torch.zeros((1, 9), dtype=torch.long))
    error = LearnerRaised("ValueError", str(raised.value))
    assert "9" in show(error.args[0], "zh") and not english_sentences(show(error.args[0], "zh"))
    assert show(error.args[0], "en").endswith(str(raised.value))
