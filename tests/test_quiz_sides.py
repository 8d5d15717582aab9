"""Practice never shows a graded variant's numbers (issue 26): a red-team run found that B4 has 8
distinct variants, so `--seed` practice found the graded variant's numbers (and printed its answers)
on the second seed tried. Graded seeds are odd and practice seeds even; each seed's numbers fall on
its side of the variant space."""

from __future__ import annotations

import json

import pytest

from grader.quiz import bank, store

SEEDS = range(40)


def _numbers(q, seed: int) -> str:
    return json.dumps(q.variant(seed).params, sort_keys=True, default=repr)


@pytest.mark.parametrize("q", bank.questions(), ids=lambda q: q.id)
def test_practice_and_graded_variants_never_share_numbers(q):
    graded = {_numbers(q, store.graded_seed(b"k" * 32, "ada", q.id, k)) for k in SEEDS}
    practice = {_numbers(q, store.practice_seed(7, q.id, k)) for k in SEEDS}
    if len(graded | practice) == 1:
        pytest.skip(f"{q.id} has one variant (a fixed fact): practising it is learning it")
    assert not graded & practice, f"{q.id}: practice shows graded numbers {sorted(graded & practice)[:2]}"


def test_a_seed_still_names_one_variant():
    q = next(q for q in bank.questions() if q.id == "B4")
    seed = store.graded_seed(b"k" * 32, "ada", "B4", 0)
    assert q.variant(seed).params == q.variant(seed).params
