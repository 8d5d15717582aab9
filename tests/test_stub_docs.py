"""The stubs' contracts in Chinese and English, from one source (issue 24; grader/course/stub_docs.py):
every stub is what `make stubs` writes from its English text and stubs.po, the catalog holds exactly
the stubs' English paragraphs, and each stub's are translated. Each guard is also run on a stub or a
catalog made wrong on purpose."""

from __future__ import annotations

import re

import pytest

from grader.course import stub_docs
from tests.english import prose_in_code

STUBS = stub_docs.learner_files()  # the given modules' docstrings too (a learner reads them in help())


@pytest.mark.parametrize("stub", STUBS, ids=[p.stem for p in STUBS])
def test_stub_is_what_make_stubs_writes(stub):
    src = stub.read_text(encoding="utf-8")
    assert stub_docs.render(src, stub_docs.table())[0] == src, f"{stub.name}: run `make stubs`"


@pytest.mark.parametrize("stub", STUBS, ids=[p.stem for p in STUBS])
def test_every_paragraph_of_the_stub_is_translated(stub):
    missing = stub_docs.render(stub.read_text(encoding="utf-8"), stub_docs.table())[1]
    assert not missing, f"{stub.name}: no Chinese in stubs.po for {missing}"


def test_catalog_holds_the_stubs_english_and_nothing_else():
    in_catalog = {m.id for m in stub_docs.read_catalog() if m.id}
    ids = set(stub_docs.english_ids())
    assert in_catalog == ids, (sorted(ids - in_catalog)[:5], sorted(in_catalog - ids)[:5])


def test_a_translated_stub_has_both_halves():
    doc = stub_docs.docstrings((stub_docs.STUBS_DIR / "a5_first_loss.py").read_text(encoding="utf-8"))[0].text
    zh, en = stub_docs.split(doc)
    assert zh.startswith("A5 — ") and en.startswith("A5 — ") and "课程问" in zh and "The course asks" in en
    assert zh.count("用 Qwen2.5-0.5B") == 1, "the course's question is quoted once in the Chinese half"
    assert stub_docs.half(doc, "en") == en and stub_docs.half(doc, "zh") == zh


def test_the_guard_catches_a_chinese_half_edited_by_hand():
    path = stub_docs.STUBS_DIR / "a5_first_loss.py"
    src = path.read_text(encoding="utf-8")
    edited = src.replace("训练第一步的 loss。", "训练第一步的 loss，约为 ln V。", 1)
    assert edited != src and stub_docs.render(edited, stub_docs.table())[0] == src


def test_the_guard_catches_a_new_english_paragraph_without_translation():
    src = (stub_docs.STUBS_DIR / "a5_first_loss.py").read_text(encoding="utf-8")
    edited = src.replace("Relative error 1e-6 is allowed.", "Relative error 1e-5 is allowed.", 1)
    out, missing = stub_docs.render(edited, stub_docs.table())
    assert any("1e-5" in m for m in missing)
    assert "float，单位 nat" not in out, "a docstring with an untranslated paragraph is written English only"


def test_update_catalog_keeps_translations_and_drops_what_is_gone(tmp_path):
    po = tmp_path / "stubs.po"
    stub_docs.update_catalog(["kept", "dropped"], po)
    cat = stub_docs.read_catalog(po)
    cat["kept"].string = "保留"
    from babel.messages.pofile import write_po

    with po.open("wb") as f:
        write_po(f, cat)
    stub_docs.update_catalog(["kept", "new"], po)
    assert stub_docs.table(po) == {"kept": "保留"}
    assert {m.id for m in stub_docs.read_catalog(po) if m.id} == {"kept", "new"}


# Issue 24: a ``literal`` is code, the same in both halves (tests/test_stubs_ask.py), so English prose
# inside one stays English in the Chinese half (tests/english.py's prose_in_code).
_LITERAL = re.compile(r"``(.+?)``", re.S)


def test_the_prose_detector_tells_prose_from_code():
    assert prose_in_code('{"records": how many, "chars": total characters}') == ["how many", "total characters"]
    assert prose_in_code("{part name: bytes}") == ["part name"]
    for code in ("(batch, heads, T, d)", "[busy(n) for n in tasks]", '"What is the capital of Peru?"', "mean ± k × s"):
        assert prose_in_code(code) == [], code
    assert prose_in_code('torch.autocast("cpu", dtype=torch.bfloat16)') == []


@pytest.mark.parametrize("stub", STUBS, ids=[p.stem for p in STUBS])
def test_no_literal_of_the_chinese_half_holds_english_prose(stub):
    found = [
        (doc.start, lit)
        for doc in stub_docs.docstrings(stub.read_text(encoding="utf-8"))
        for lit in _LITERAL.findall(stub_docs.split(doc.text)[0])
        if prose_in_code(lit)
    ]
    assert not found, f"{stub.name}: prose inside ``...`` (quote only code; say the rest in words): {found}"


_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
_NOQA = re.compile(r"#\s*noqa(?::\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)?")


def english_only_comments(source: str) -> list[tuple[int, str]]:
    """The comments of a stub a learner reads in English only: words, no Chinese in the comment nor in
    the comment line next to it (a bilingual pair: 中文 above, English below); a bare ``# noqa: F401``
    is code. A comment after code travels into the classroom notebook with its line."""
    import io
    import tokenize

    comments = {
        tok.start[0]: tok.string
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
    }
    found = []
    for line, text in comments.items():
        words = re.findall(r"[A-Za-z]{2,}", _NOQA.sub(" ", text))
        paired = any(_CJK_CHAR.search(comments.get(n, "")) for n in (line - 1, line + 1))
        if words and not _CJK_CHAR.search(text) and not paired:
            found.append((line, text))
    return found


def test_the_comment_guard_tells_bilingual_from_english_only():
    assert english_only_comments("import x  # noqa: F401  (the grader calls it too)\n") == [
        (1, "# noqa: F401  (the grader calls it too)")
    ]
    assert english_only_comments("import x  # noqa: F401\n# 中文说明\n# the English\ny = 1  # 评分器 / grader\n") == []


@pytest.mark.parametrize("stub", STUBS, ids=[p.stem for p in STUBS])
def test_every_comment_a_learner_reads_is_bilingual(stub):
    # x1_gil's "# noqa: F401  (the grader calls it too, for the serial run)" reached the notebook in English
    found = english_only_comments(stub.read_text(encoding="utf-8"))
    assert not found, f"{stub.name}: comments in English only (write the Chinese too, or code only): {found}"


# Names the Chinese half keeps in English: a library's own name.
NAMES_KEPT = frozenset({"Hugging Face tokenizer"})
_ARG = re.compile(r"^\s*[\w*]+(?:,\s*[\w*]+)*:\s*(?:float|int|str|bool)?", re.M)  # "pred, target: float 张量"


def english_in_chinese_half(text: str) -> list[str]:
    """English prose in a docstring's Chinese half outside ``code``: a sentence (tests/english.py), or a
    quoted English phrase ("bf16 mixed precision") where the Chinese half should quote the Chinese term.
    A quote holding code or data (an escape, a question mark, a colon, brackets) is code."""
    from tests.english import english_sentences

    bare = _ARG.sub(" ", re.sub(r"``[^`]*``", " ", text))
    quoted = [
        q
        for q in re.findall(r'"([^"\n]*)"', bare)
        if re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", q)
        and not _CJK_CHAR.search(q)
        and not re.search(r"[\\?:=()\[\]{}_]", q)
    ]
    return quoted + english_sentences(bare, NAMES_KEPT)


def test_the_chinese_half_guard_catches_a_quoted_english_phrase():
    # the R stub's Chinese half said: "bf16 mixed precision"（bf16 混合精度）可以按课程使用这个词的任一种读法理解
    assert english_in_chinese_half('"bf16 mixed precision"（bf16 混合精度）可以按课程使用这个词的任一种读法理解') == [
        "bf16 mixed precision"
    ]
    assert english_in_chinese_half("拐点，以 FLOP per byte 计") == ["FLOP per byte"]
    assert english_in_chinese_half('“bf16 混合精度”；``"Q: What is it?"``；"Q: What is the capital?\\nA:"') == []


@pytest.mark.parametrize("stub", STUBS, ids=[p.stem for p in STUBS])
def test_the_chinese_half_holds_no_english_prose(stub):
    found = [
        (doc.start, hit)
        for doc in stub_docs.docstrings(stub.read_text(encoding="utf-8"))
        for hit in english_in_chinese_half(stub_docs.split(doc.text)[0])
    ]
    assert not found, f"{stub.name}: English in the Chinese half (quote the Chinese term; code in ``...``): {found}"
