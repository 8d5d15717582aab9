"""No learner-visible module gives an answer that another stub withholds (issue 23).

tests/test_stubs_ask.py checks each stub against its own ``forbidden``; here every stub AND every
module the sandbox lets the learner read (exercises/, and grader/isolation/sandbox.py's
``LEARNER_VISIBLE``: grader/inside/, grader/given/, grader/drivers/), code included, is checked against the
union of every exercise's ``forbidden`` and ``FORBIDDEN_EVERYWHERE``.

A stub is not checked against its own answers (test_stubs_ask.py does that, with its ``allowed``)
nor against what its own course question states. Three tables say why the rest of the matches
are not leaks, each entry with its reason:

- ``WORDS``: a forbidden item that is an answer only in its own stub's context (an ordinary
  phrase, a number in another sense, a name of the library a contract must use); a plain word of
  letters only is always such an item;
- ``CONVENTIONS``: one file's use of an item its contract cannot do without;
- ``KNOWN``: leaks in files another developer owns this round, to fix at merge.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from grader.course import catalog
from grader.course.catalog import FORBIDDEN_EVERYWHERE, ROOT
from grader.isolation.sandbox import LEARNER_VISIBLE
from tests.test_stubs_ask import _flat, _found

_PHRASE = "an ordinary phrase, an answer only where its own stub asks it"
_NUMBER = "a number or an operator in another sense here (a size, a tolerance, a time, a count)"
_API = "a name of the library or of the given code that a contract must use to be precise"
WORDS: dict[str, str] = {
    **{
        w: _PHRASE
        for w in (
            "outside the",
            "as many",
            "one of them",
            "set of",
            "counted once",
            "by position",
            "mean of the",
            "too large",
            "child process",
            "worker processes",
            "closed form",
            "no NumPy",
            "full replica",
            "parameter count",
            "ignore index",
            "B x T",
            "Hugging Face",
            "in fp32",
            "4 layers",
            "read()",
        )
    },
    **{
        w: _NUMBER
        for w in (
            "1.5",
            "60",
            "1e-6",
            "1e-3",
            "2 *",
            "4x",
            "5x",
            "8x",
            "**2",
            "1.0)",
            "W +",
            "i * i % 7",
            "id 0",
            "(id 0)",
            "(id 0",
        )
    },
    **{
        w: _API
        for w in (
            "manual_seed",
            "Generator(",
            "generator=",
            "sha256",
            "SHA-256",
            "copy_",
            ".item()",
            "cross_entropy(",
            ".float()",
            "float()",
            "bfloat16)",
            "mse_loss",
            "lm_head",
            "task_type",
            "lora_alpha",
            "fp32",
            "ci95",
            "sft_trainer",
            "get_peft_model",
            "LoraConfig",
            "LambdaLR",
        )
    },
}
CONVENTIONS: dict[tuple[str, str], str] = {
    ("exercises/a8_lora_params.py", "all-linear"): "an input value the grader passes as target_modules",
    ("exercises/p3_memory_estimate.py", "all-linear"): "the course's part-4 convention the question is computed under",
    ("exercises/p3_memory_estimate.py", "target_modules="): "the same convention, in peft's spelling",
    ("exercises/b3_never_stops.py", "never stops"): "B3's own question (一直不停), in English",
    ("exercises/b3_never_stops.py", "never stop"): "B3's own question (一直不停), in English",
    ("grader/drivers/p4_lora_sft.py", "LoraConfig"): "the driver reads the learner's own LoraConfig back",
    ("exercises/c2_loss_triage.py", "zero_grad"): "an enum value missing_line returns: naming the three candidate "
    "lines is C2's question (which one is missing), not P2/C5's order or set_to_none",
}
KNOWN: dict[tuple[str, str], str] = {}


def learner_visible() -> list[Path]:
    files = sorted((ROOT / "exercises").glob("*.py"))
    for rel in LEARNER_VISIBLE:
        path = ROOT / rel
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


@functools.cache
def union() -> dict[str, set[str]]:
    """Every withheld item, with the exercises that withhold it ("*": every stub)."""
    out: dict[str, set[str]] = {}
    for ex in catalog.CATALOG:
        for item in ex.forbidden:
            out.setdefault(item, set()).add(ex.id)
    for item in FORBIDDEN_EVERYWHERE:
        out.setdefault(item, set()).add("*")
    return out


def leaks(rel: str, text: str) -> dict[str, list[str]]:
    """The withheld items ``text`` (the file ``rel``) gives away: {item: the exercises withholding it}."""
    ex = catalog.BY_MODULE.get(Path(rel).stem) if rel.startswith("exercises/") else None
    question = _flat(ex.question) if ex else ""
    text = _flat(text)
    found = {}
    for item, owners in union().items():
        if ex is not None and (ex.id in owners or item in ex.allowed or _found(item, question)):
            continue  # its own answers: tests/test_stubs_ask.py
        if re.fullmatch(r"[A-Za-z-]+", item) or item in WORDS or (rel, item) in CONVENTIONS:
            continue
        if _found(item, text):
            found[item] = sorted(owners)
    return found


FILES = [str(p.relative_to(ROOT)) for p in learner_visible()]


@pytest.mark.parametrize("rel", FILES)
def test_no_learner_visible_file_gives_another_stubs_answer(rel):
    got = {
        item: owners
        for item, owners in leaks(rel, (ROOT / rel).read_text(encoding="utf-8")).items()
        if (rel, item) not in KNOWN
    }
    assert not got, f"{rel} gives away what these exercises withhold: {got}"


def test_known_leaks_are_still_there():
    """A KNOWN entry that no longer matches is stale: remove it (the table lists what is left to do)."""
    stale = [k for k in KNOWN if k[1] not in leaks(k[0], (ROOT / k[0]).read_text(encoding="utf-8"))]
    assert not stale, stale


def test_the_tables_name_real_items():
    items = union()
    assert not [w for w in WORDS if w not in items] and not [k for k in CONVENTIONS if k[1] not in items]


def test_the_sandbox_lets_the_learner_read_these_files():
    """The scan covers what the sandbox binds read-only for the learner (its LEARNER_VISIBLE list)."""
    assert {"grader/inside", "grader/given", "grader/drivers"} <= set(LEARNER_VISIBLE)
    assert any(f.startswith("grader/given/") for f in FILES) and any(f.startswith("grader/drivers/") for f in FILES)


@pytest.mark.parametrize(
    "rel,text,item",
    [
        # the issue's leaks, as the files had them
        (
            "grader/given/sft.py",
            "torch.nn.utils.clip_grad_norm_(params, 1.0)\nopt.step()\nopt.zero_grad()",
            "zero_grad",
        ),
        (
            "exercises/a8_lora_params.py",
            "``get_peft_model(model, LoraConfig(r=r, target_modules=target_modules))``",
            "target_modules=",
        ),
        (
            "exercises/p3_memory_estimate.py",
            "loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)",
            "backward();",
        ),
        ("grader/given/char_model.py", "nn.init.normal_(module.weight, mean=0.0, std=0.02)", "0.02"),
    ],
)
def test_the_guard_catches_the_issues_leaks(rel, text, item):
    assert item in leaks(rel, text)
