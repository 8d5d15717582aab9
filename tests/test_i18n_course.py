"""The course's words in Chinese (issue 24): every text of grader/course a learner reads has a
Chinese entry in course.po and is shown through the catalog's own API; no entry leaves an English
sentence untranslated or changes the course's quotes; in English nothing changed. Each guard is
also run on a text made wrong on purpose, to show it can fail."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from grader import i18n
from grader.course import catalog, levels
from tests.english import english_sentences

QUOTE = re.compile(r"「[^」]*」")  # the course's own words, verbatim in both languages


def entries() -> dict[str, str]:
    """course.po's translated entries: English message id -> Chinese."""
    with i18n.catalog_path("course").open("rb") as f:
        return {m.id: m.string for m in read_po(f, locale="zh") if m.id and m.string and not m.fuzzy}


def shown_ids() -> dict[str, str]:
    """Every message id the catalog shows a learner, by where it is shown."""
    ids = {f"set {s}": t for s, t in catalog.SET_TITLES.items()}
    ids |= {f"part {p}": t for p, t in catalog.PART_TITLES.items()}
    ids["follow-up prefix"] = catalog.FOLLOW_UP
    for ex in catalog.CATALOG:
        ids[f"{ex.id} title"] = ex.title
        for kp in ex.key_points:
            where = f"{ex.id}.{kp.id}"
            ids[f"{where} claim"] = kp.claim
            ids[f"{where} re-read"] = catalog._POINTERS[kp.reread][0]
            ids |= {f"{where} lesson part {i}": part for i, part in enumerate(kp.lesson_parts)}
    return ids


def level_messages() -> list[levels.Message]:
    """The needs and criteria the levels report, for outcomes that stop at each level, with and
    without the quiz."""
    passed = {ex.id: {kp.id: True for kp in ex.key_points} for ex in catalog.CATALOG}
    r_only = {"R": passed["R"]}
    no_x = {k: v for k, v in passed.items() if catalog.BY_ID[k].set != "X"}
    no_c = {k: v for k, v in passed.items() if catalog.BY_ID[k].set != "C"}
    quiz = levels.QuizCounts(
        r=(levels.R_ITEMS, levels.R_ITEMS),
        a=(0, levels.COURSE_QUESTIONS["A"]),
        b=(0, levels.COURSE_QUESTIONS["B"]),
        c_points={ex.id: (0, 2) for ex in catalog.CATALOG if ex.set == "C"},
        c_all={ex.id: (0, 3) for ex in catalog.CATALOG if ex.set == "C"},
    )
    out: list[levels.Message] = []
    for outcomes in ({}, r_only, no_c, no_x):
        for q in (None, quiz):
            summary = levels.summarize(outcomes, q)
            out += summary.next_level_messages + [c.message for c in summary.criteria]
    return out


def message_ids(message: levels.Message) -> set[str]:
    return {message.msgid} | {i for _k, v in message.fields if isinstance(v, levels.Message) for i in message_ids(v)}


def without_entry(ids: dict[str, str], po: dict[str, str]) -> list[str]:
    return [f"{where}: {msgid!r}" for where, msgid in ids.items() if msgid not in po]


@pytest.fixture
def zh(monkeypatch):
    monkeypatch.setattr(i18n, "_lang", "zh")


@pytest.fixture
def en(monkeypatch):
    monkeypatch.setattr(i18n, "_lang", "en")


def test_every_shown_text_has_a_chinese_entry():
    missing = without_entry(shown_ids(), entries())
    assert not missing, "no entry in course.po:\n" + "\n".join(missing)
    # The levels' words may live in another domain's catalog (grader/i18n.py's DOMAINS): any zh entry.
    ids = {f"level {name}": t for name, t in levels.LEVEL_NAMES.items()}
    ids |= {f"level message {m.msgid}": i for m in level_messages() for i in message_ids(m)}
    assert not without_entry(ids, i18n.translations("zh"))


def test_the_entry_guard_names_a_text_without_entry():
    assert without_entry({"A1 title": "kept", "A2 title": "new"}, {"kept": "保留"}) == ["A2 title: 'new'"]


def test_the_catalog_api_shows_the_chinese(zh):
    po = entries()
    for ex in catalog.CATALOG:
        assert ex.title_text() == po[ex.title]
        for kp in ex.key_points:
            assert kp.claim_text() == po[kp.claim]
            assert kp.lesson_text() == "".join(po[p] for p in kp.lesson_parts)
            msgid, fields, headings = catalog._POINTERS[kp.reread]
            assert kp.reread_text() == f"{po[msgid].format(**fields)} — " + " · ".join(headings)
    assert [catalog.set_title(s) for s in catalog.SETS] == [po[catalog.SET_TITLES[s]] for s in catalog.SETS]
    assert catalog.part_title(4) == po[catalog.PART_TITLES[4]]
    assert levels.level_text("mastered") == "掌握"  # part 7 §五.D's word
    for message in level_messages():
        assert message.text() != str(message), message.msgid
        assert not english_sentences(message.text()), message.text()


def test_no_entry_keeps_an_english_sentence():
    left = {msgid: english_sentences(zh) for msgid, zh in entries().items() if english_sentences(zh)}
    assert not left, "English left in course.po:\n" + "\n".join(f"{k!r}: {v}" for k, v in left.items())


def test_the_english_detector_finds_english_and_passes_names_code_and_quotes():
    assert english_sentences("An 8 GB corpus, read line by line") == ["GB corpus, read line by line"]
    assert english_sentences("形状不匹配时的 loss, which runs anyway")
    assert not english_sentences("CUDA out of memory：是哪一块")  # a name
    assert not english_sentences("对照 torch.cuda.max_memory_allocated() 与 Hugging Face 的 peft")  # code, a name
    assert not english_sentences("— 「ignore_index=-100 是 SFT 的 loss mask and so on」")  # the course's quote
    assert not english_sentences("target_modules='all-linear' hooks")
    # code that is not quoted: algebra, a call's arguments, a shape
    assert not english_sentences("LoRA 加上 (alpha/r) B A x：imap(tokenize, texts, chunksize=...) 与 (B, heads, T, T)")


def test_every_entry_keeps_the_course_quotes_and_placeholders():
    changed = [
        msgid
        for msgid, zh in entries().items()
        if QUOTE.findall(msgid) != QUOTE.findall(zh) or i18n.placeholders(msgid) != i18n.placeholders(zh)
    ]
    assert not changed, changed
    assert QUOTE.findall("a — 「原文」") != QUOTE.findall("甲 — 「改过的原文」")  # the comparison can fail


def test_the_chinese_gives_away_nothing_the_english_keeps_back(zh):
    """The engine decides on the English whether a claim or lesson is shown before the reveal
    (catalog.states_withheld): where the English states no withheld item, the Chinese states none."""
    leaks = []
    for ex in catalog.CATALOG:
        for kp in ex.key_points:
            for english, chinese in ((kp.claim, kp.claim_text), (kp.lesson, kp.lesson_text)):
                if not catalog.states_withheld(ex, english) and catalog.states_withheld(ex, chinese()):
                    leaks.append(f"{ex.id}.{kp.id}: {catalog.states_withheld(ex, chinese())} in {chinese()!r}")
    assert not leaks, "\n".join(leaks)
    assert catalog.states_withheld(catalog.BY_ID["A10"], "kernel launch")  # the check can fail


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_follow_up_claim_loses_its_prefix_in_either_language(monkeypatch, lang):
    monkeypatch.setattr(i18n, "_lang", lang)
    followups = [kp for ex in catalog.CATALOG for kp in ex.key_points if kp.followup]
    assert followups
    for kp in followups:
        assert kp.claim_text().startswith(i18n._(catalog.FOLLOW_UP)), kp.claim_text()
        assert kp.claim_text(prefix=False) == kp.claim_text().removeprefix(i18n._(catalog.FOLLOW_UP))
        assert not kp.claim_text(prefix=False).startswith(i18n._(catalog.FOLLOW_UP))


def test_english_is_unchanged(en):
    for ex in catalog.CATALOG:
        assert ex.title_text() == ex.title
        for kp in ex.key_points:
            assert kp.claim_text() == kp.claim
            assert kp.lesson_text() == kp.lesson == "".join(kp.lesson_parts)
            assert kp.reread_text() == kp.reread
    summary = levels.summarize({})
    need = levels.needed("R", levels.R_ITEMS)
    assert (
        summary.next_level_needs
        == summary.next_level_needs_text()
        == [f"R: 0/{levels.R_ITEMS} recall items, need {need}"]
    )
    for message in level_messages():
        assert message.text() == str(message)
        assert "{" not in str(message)  # every field filled


def test_braces_of_the_course_latex_are_shown_as_they_are(zh):
    tol = next(kp for kp in catalog.BY_ID["P1"].key_points if "\\(10^{-6}\\)" in kp.lesson)
    assert "\\(10^{-6}\\)" in tol.lesson_text()  # not taken for a {placeholder}
