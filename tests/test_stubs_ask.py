"""A stub asks, it never answers (issue 14).

Every stub in exercises/ quotes its course question (the Chinese original, verbatim) and contains
none of the answers its catalog entry lists (``forbidden``) nor any of the course's must-remember
values every stub must keep out (``FORBIDDEN_EVERYWHERE``). The catalog's re-read pointers quote
the course's headings verbatim, so that searching the course text finds them, and its claims (the
"what is checked" line, printed before any answer is revealed) give no answer away either.

The course text is found by tests/course_files.py (``$TOOLBOX_COURSE_DIR``, else ``shared/course``
beside the project or beside the checkout it was cloned from); a test that needs it fails without it.
``$TOOLBOX_STUBS_DIR`` points the stub
checks at another folder of stubs (e.g. an older version, to see these tests fail on it).
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from grader.course import catalog
from grader.course.catalog import FORBIDDEN_EVERYWHERE, ROOT
from tests import course_files

STUBS_DIR = Path(os.environ.get("TOOLBOX_STUBS_DIR") or ROOT / "exercises")
EXERCISES = list(catalog.CATALOG)
IDS = [ex.id for ex in EXERCISES]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _course_text() -> str:
    files = sorted(course_files.course_dir().glob("*.txt"))
    return _flat("\n".join(f.read_text(encoding="utf-8") for f in files))


def _stub_text(ex: catalog.Exercise, folder: Path | None = None) -> str:
    """The stub as a reader sees it: its source and its docstrings as Python evaluates them."""
    src = ((folder or STUBS_DIR) / f"{ex.module}.py").read_text(encoding="utf-8")
    tree = ast.parse(src)
    docs = [
        ast.get_docstring(n, clean=True) or ""
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
    ]
    return _flat(src + "\n" + "\n".join(docs))


def _found(item: str, text: str) -> bool:
    """Case-insensitive; an item starting or ending with a letter or digit matches there as a whole word
    (the catalog's own matcher, which the feedback's withholding uses too)."""
    return catalog.item_pattern(item).search(text) is not None


def _banned(ex: catalog.Exercise) -> list[str]:
    """Every answer this stub must not contain; an everywhere-item its own question states is allowed."""
    question = _flat(ex.question)
    return [i for i in FORBIDDEN_EVERYWHERE if not _found(i, question) and i not in ex.allowed] + list(ex.forbidden)


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_stub_quotes_its_course_question(ex):
    assert ex.question, f"{ex.id}: the catalog entry names no course question"
    doc = _flat(ast.get_docstring(ast.parse((STUBS_DIR / f"{ex.module}.py").read_text(encoding="utf-8"))) or "")
    assert _flat(ex.question) in doc, (
        f"{ex.id}: the stub's docstring does not quote its course question {ex.question!r}"
    )


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_question_is_the_courses_own(ex):
    assert _flat(ex.question) in _course_text(), f"{ex.id}: {ex.question!r} is not verbatim in the course"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_stub_contains_no_answer(ex):
    text = _stub_text(ex)
    leaks = [item for item in _banned(ex) if _found(item, text)]
    assert not leaks, f"{ex.id}: exercises/{ex.module}.py gives away {leaks}"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_forbidden_list_is_meaningful(ex):
    assert ex.forbidden, f"{ex.id}: the catalog entry lists no answers its stub must not contain"
    stated = [item for item in ex.forbidden if _found(item, _flat(ex.question))]
    assert not stated, f"{ex.id}: the course's own question states {stated}: they cannot be forbidden"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_claims_give_no_answer(ex):
    """A claim is shown before anything is revealed (and in `grader list -v`, in the release notebooks)."""
    leaks = {kp.id: [i for i in _banned(ex) if _found(i, kp.claim)] for kp in ex.key_points}
    leaks = {k: v for k, v in leaks.items() if v}
    assert not leaks, f"{ex.id}: claims give away {leaks}"


def _id_words(text: str) -> str:
    """An id or a forbidden item as words: ``full_1120_gb`` -> ``full 1120 gb``, ``set_to_none`` -> ``set to none``."""
    return _flat(text.replace("_", " "))


def _id_leaks(ex: catalog.Exercise, kp_id: str) -> list[str]:
    return [item for item in _banned(ex) if _found(_id_words(item), _id_words(kp_id))]


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_key_point_ids_give_no_answer(ex):
    """A key point's id is shown with every result (the terminal, the JSON, the HTML report, the
    notebooks' test cells): it names what is checked, never the answer."""
    leaks = {kp.id: _id_leaks(ex, kp.id) for kp in ex.key_points}
    leaks = {k: v for k, v in leaks.items() if v}
    assert not leaks, f"{ex.id}: key point ids give away {leaks}"


# Ids the key points had before they were renamed (issue 14's review): each carried its answer.
OLD_IDS = {
    "A2": ("bf16_is_two_bytes", "integer_index_drops_dim", "slice_keeps_dim"),
    "A3": ("aligns_from_the_right",),
    "A4": ("backward_accumulates",),
    "A5": ("init_gives_ln_v",),
    "A7": ("checkpointing_keeps_inputs",),
    "A8": ("linear_in_r",),
    "B3": ("eos_kept_in_labels",),
    "B4": ("merged_equals_unmerged",),
    "B5": ("processes_not_threads",),
    "C1": (
        "full_1120_gb",
        "lora_155_gb",
        "qlora_half_byte",
        "inference_one_eighth",
        "sixteen_byte_breakdown",
        "activations_outside",
    ),
    "C2": ("ln_v_first", "shapes_second"),
    "C3": ("intensity_equals_batch", "quantization_helps_decode", "moe_decode_hard"),
    "C4": ("four_blocks", "by_when"),
    "C5": ("autocast", "float_ignore_index", "clip_grad_norm", "warmup_cosine", "grad_accumulation"),
    "C6": ("seven_items", "data_version"),
    "C7": ("streaming", "process_pool"),
    "P1": ("scaled_softmax_over_keys",),
    "P2": ("first_loss_ln_v", "float_logits_ignore_index", "zero_grad_set_to_none"),
    "P3": ("state_blocks_within_30pct",),
    "P4": ("eos_label_kept", "labels_mask_prompt_and_padding"),
    "P5": ("seven_item_record",),
    "X1": ("threads_no_speedup", "processes_speed_up"),
    "X2": ("silent_broadcast",),
    "X3": ("params_stay_fp32", "matmul_outputs_bf16", "loss_fp32"),
    "X4": ("bytes_over_bandwidth", "not_flops_over_compute"),
    "X5": ("never_stops",),  # "the loss falls" is what its question states
}


def test_the_id_guard_catches_the_old_ids():
    """The guard itself: every id the review found carrying its answer is caught by its catalog entry."""
    missed = [
        f"{ex_id}.{old}" for ex_id, olds in OLD_IDS.items() for old in olds if not _id_leaks(catalog.get(ex_id), old)
    ]
    assert not missed, f"the forbidden lists do not catch {missed}"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_rereads_quote_course_headings(ex):
    course = _course_text()
    for kp in ex.key_points:
        english, sep, chinese = kp.reread.partition(" — ")
        assert sep and english.startswith(("part", "L1")), f"{ex.id}.{kp.id}: {kp.reread!r}"
        for heading in chinese.split(" · "):
            assert _flat(heading) in course, f"{ex.id}.{kp.id}: {heading!r} is not a heading of the course"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_every_key_point_has_a_lesson(ex):
    missing = [kp.id for kp in ex.key_points if not kp.lesson]
    assert not missing, f"{ex.id}: key points without the course's lesson: {missing}"


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_lessons_quote_the_course_verbatim(ex):
    """What a lesson puts in 「」 is the course's own line, so that searching the course finds it."""
    course = _course_text()
    for kp in ex.key_points:
        for quote in re.findall(r"「(.+?)」", kp.lesson):
            assert _flat(quote) in course, f"{ex.id}.{kp.id}: 「{quote}」 is not verbatim in the course"


def test_the_guard_catches_a_stub_that_answers(tmp_path):
    """The guard itself: a stub that states its answer is caught (the old A6 stub's own words)."""
    ex = catalog.get("A6")
    (tmp_path / f"{ex.module}.py").write_text(
        '"""A6 — 16 bytes per trainable parameter: full_finetune_bytes(3 * 10**9) == 48 * 10**9, 48 GB."""\n'
    )
    text = _stub_text(ex, tmp_path)
    assert {"16 bytes", "48 GB"} <= {i for i in _banned(ex) if _found(i, text)}
    assert _flat(ex.question) not in text


def test_recall_topics_do_not_name_their_part():
    """R asks which part teaches each topic (grader/given/recall_topics.py, shown to the learner): a
    topic that borrows a part's title ("Pandas ...", "... Python protocols") answers itself, and
    one that states a fact (the master weights, process pools, generators) answers another item."""
    from grader.given.recall_topics import TOPICS

    title_words = {w for title in catalog.PART_TITLES.values() for w in re.findall(r"[a-z]+", title.lower())}
    title_words -= {"and", "training", "loop", "review", "self", "test"}  # generic: they name no part
    facts = ("master", "process pool", "generator", "multi-seed", "fp32")
    named = {t: sorted(title_words & set(re.findall(r"[a-z]+", t.lower()))) for t in TOPICS}
    named = {t: w for t, w in named.items() if w}
    stated = {t: [f for f in facts if f in t.lower()] for t in TOPICS}
    stated = {t: f for t, f in stated.items() if f}
    assert not named and not stated, (named, stated)


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_source_lines_point_into_the_course(ex):
    """A stub's ``Source:`` / ``Study:`` lines say where to study, "第四篇 · 必记 / part 4,
    must-remember" (the Chinese half: "学习：第四篇 · 必记"): each Chinese section named there is the
    course's own heading (searching the course text finds it); the part labels
    themselves (第四篇, 总纲) are the series' numbering."""
    course = _course_text()
    text = _flat((STUBS_DIR / f"{ex.module}.py").read_text(encoding="utf-8"))
    missing = set()
    for m in re.finditer(r"(?:(?:Source|Study): |(?:出处|学习)：)(.+?)(?:\.\s|。|\"\"\"|$)", text):
        for pointer in re.split("[;；]", m.group(1)):
            chinese = pointer.split(" / ")[0]
            for piece in chinese.split(" · "):
                for name in re.split(r"[()（）]", piece):
                    name = name.strip()
                    if (
                        re.search(r"[\u4e00-\u9fff]", name)
                        and not re.fullmatch(r"第[一二三四五六七]篇|总纲|第 ?\d+ ?[题条]", name)
                        and not re.search(r"[A-Za-z]{3}", name)
                        and name not in course
                    ):
                        missing.add(name)
    assert not missing, f"{ex.id}: the stub's study pointers name {sorted(missing)}, not headings of the course"


# What a translation may not add to its English (issue 24): a number, a word in Latin letters (a
# name, a unit, a function), an operator or a piece of code the English lacks. So the Chinese half
# states no formula or value the English does not, and keeps every name the contract gives.
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_OPERATOR = re.compile(r"[=+*/^√×≈±<>%]")
_CODE = re.compile(r"``.+?``", re.S)


_ENDINGS = ("", "s", "es", "d", "ed", "led", "ing")  # tokens, batches, profiled, labelled, padding


def _stems(word: str) -> set[str]:
    return {word.lower().removesuffix(end) for end in _ENDINGS}


def _words(text: str) -> set[str]:
    """Its Latin-letter words, lower case, each also without an ending."""
    return {stem for w in _WORD.findall(text) for stem in _stems(w)}


def added_by_translation(english: str, chinese: str) -> list[str]:
    """What ``chinese`` states that ``english`` does not, and the code ``english`` names that ``chinese`` drops."""
    code_en, code_zh = set(_CODE.findall(english)), set(_CODE.findall(chinese))
    zh = _CODE.sub(" ", chinese)  # a number or name inside the English's code is the English's
    added = sorted(set(_NUMBER.findall(zh)) - set(_NUMBER.findall(english)))
    known = _words(english)
    added += sorted({w.lower() for w in _WORD.findall(zh) if not _stems(w) & known})
    added += sorted(set(_OPERATOR.findall(zh)) - set(_OPERATOR.findall(english)))
    added += sorted(code_zh - code_en) + [f"dropped {c}" for c in sorted(code_en - code_zh)]
    return added


def test_translations_add_no_fact():
    """Each translated paragraph of each stub against its English (and the course's own question
    the stub quotes, whose words a translation may use)."""
    from grader.course import stub_docs

    table, wrong = stub_docs.table(), {}
    for path in stub_docs.stub_files(STUBS_DIR):
        docs = [stub_docs.split(d.text)[1] for d in stub_docs.docstrings(path.read_text(encoding="utf-8"))]
        quoted = "\n".join(p for p in stub_docs.paragraphs(docs[0]) if stub_docs.is_quote(p))
        for msgid in (m for doc in docs for m in stub_docs.message_ids(doc) if m in table):
            added = added_by_translation(msgid + "\n" + quoted, table[msgid])
            if added:
                wrong[f"{path.name}: {msgid[:60]!r}"] = added
    assert not wrong, f"stubs.po: translations that add or drop: {wrong}"


def test_the_translation_guard_catches_an_added_fact():
    english = "The cross-entropy loss at the first step, for ``vocab_size`` tokens."
    assert not added_by_translation(english, "第一步的交叉熵 loss，词表为 ``vocab_size`` 个 token。")
    assert added_by_translation(english, "第一步的交叉熵 loss，约为 ln V（``vocab_size`` 个 token）。") == ["ln", "v"]
    assert added_by_translation(english, "每个参数 16 字节。") == ["16", "dropped ``vocab_size``"]
    assert added_by_translation(english, "loss = log(``vocab_size``)") == ["log", "="]
