"""The two stubs that make a run record (C6, P5) ask for R's recall without answering it, alone or
together (issue 23: their conventions, added up, named the seven items R asks for). What R withholds
(its catalog `forbidden`: the items' names, "seven") appears in neither stub; their value
conventions name more kinds than a record needs, so their list is not the record's."""

from __future__ import annotations

import pytest

from grader.course import catalog
from grader.course.catalog import ROOT

RECORD_STUBS = ("C6", "P5")
R_ITEMS = ("run id", "run_id", "data version", "data_version", "commit", "environment", "seven")


def _text(ex_id: str) -> str:
    return " ".join(
        (ROOT / "exercises" / f"{catalog.get(ex_id).module}.py").read_text(encoding="utf-8").lower().split()
    )


def test_r_withholds_the_record_items():
    r = {f.lower() for f in catalog.get("R").forbidden}
    assert {"run id", "run_id", "data version", "commit", "environment", "seven"} <= r


@pytest.mark.parametrize("ex_id", RECORD_STUBS)
def test_record_stub_names_none_of_rs_items(ex_id):
    found = [item for item in R_ITEMS if item in _text(ex_id)]
    assert not found, f"{ex_id}'s stub names what R withholds: {found}"


def test_record_conventions_name_kinds_a_record_leaves_out():
    for ex_id in RECORD_STUBS:
        text = _text(ex_id)
        # distractor kinds beside the ones a record needs: a size, a time, a machine
        assert "more kinds" in text and "size in bytes" in text and "host name" in text, ex_id
