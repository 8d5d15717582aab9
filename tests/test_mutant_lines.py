"""A named mistake is said in the reader's language: every registered wrong answer's line
(``MISCONCEPTION``, else its docstring's first sentence: solutions/mutants/) is an id of the
``mutants`` catalog, translated (a Chinese-only learner read P1's "Naive softmax: ..." in English)."""

from __future__ import annotations

from babel.messages.pofile import read_po

from grader import i18n
from grader.engine import misconceptions
from tests.test_i18n import untranslated


def _catalog():
    with i18n.catalog_path(misconceptions.MUTANTS_DOMAIN).open("rb") as f:
        return read_po(f, locale="zh")


def test_every_mutant_line_is_in_the_catalog_translated():
    lines = set(misconceptions.mutant_lines())
    in_catalog = {m.id for m in _catalog() if m.id}
    assert len(lines) > 300  # the mutants were read
    assert not lines - in_catalog, f"no entry (make messages): {sorted(lines - in_catalog)[:5]}"
    assert not in_catalog - lines, f"gone from the mutants (make messages): {sorted(in_catalog - lines)[:5]}"
    assert not untranslated(_catalog()), untranslated(_catalog())[:5]


def test_a_named_mistake_is_shown_in_the_readers_language():
    path = misconceptions.MUTANTS / "p1_causal_attention" / "naive_exp.py"
    _killed, line = misconceptions._killed_by_and_line(path)
    assert "Naive softmax" in i18n.show(line, "en")
    zh = i18n.show(i18n.data(line), "zh")  # as stored, read again in Chinese
    assert "朴素的 softmax" in zh and "Naive" not in zh, zh
    path = misconceptions.MUTANTS / "a10_profile_idle" / "idle_not_clamped.py"  # a MISCONCEPTION line
    _killed, said, phrased = misconceptions._registered(path)
    zh = i18n.show(i18n.data(misconceptions._killed_by_and_line(path)[1]), "zh")
    assert phrased and i18n.lookup(said, "zh") in zh and said not in zh, zh


def test_an_ellipsis_does_not_end_the_first_sentence():
    _killed, said, phrased = misconceptions._registered(
        misconceptions.MUTANTS / "a2_nbytes_index" / "ellipsis_is_one_dim.py"
    )
    assert not phrased and said.startswith("Treats ... as a single ':'"), said
