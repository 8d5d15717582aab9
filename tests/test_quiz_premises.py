"""Premises consistent across the parts of one interview (issue 26's follow-up): a later part's drawn
numbers make sense with the earlier parts' right answers, for any variant; and the working shown
uses the numbers as the question shows them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from grader.quiz import bank

GB = 1e9
seeds = st.integers(min_value=0, max_value=2**48 - 1)


@pytest.fixture(autouse=True, scope="module")
def _ground_truth_imported():
    """One variant of each first, outside @given: the ground truth imports check modules that hold
    hypothesis tests of their own (a nested @given when first imported inside one)."""
    for qid in ("C1", "C4"):
        bank.get(qid).variant(0).view()


def _truths(v, ids=("full", "full_gpus", "fsdp_share")):
    return {i: v.truth(v.question.part(i)) for i in ids}


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_c1_fsdp_size_is_at_least_the_gpus_the_plan_needs(seed):
    """[11/13] shards the state over at least the GPUs [4/13] planned: each GPU's share fits it."""
    v = bank.get("C1").variant(seed)
    q, t = v.question, _truths(v)
    shards = int(re.search(r"切到 (\d+) 张卡", v.prompt(q.part("fsdp_share"), "zh")).group(1))
    gpu = v.params["gpu_gb"] * GB
    assert shards >= t["full_gpus"], (v.params, shards, t["full_gpus"])
    assert t["fsdp_share"] <= gpu, (v.params, shards, t["fsdp_share"] / GB)
    assert t["fsdp_share"] * shards >= t["full"]  # the share is of the state [3/13] computed


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_c4_premises_fit_the_interviews_gpu(seed):
    """C4's largest batch is at least one sample, and its FSDP follow-up's share fits the {gpu_gb} GPU."""
    v = bank.get("C4").variant(seed)
    q, p = v.question, v.params
    assert v.truth(q.part("max_batch")) >= 1, p
    share = v.truth(q.part("fsdp"))
    assert share <= p["gpu_gb"] * GB, (p, share / GB)
    shards = int(re.search(r"(\d+) 卡 FSDP", v.prompt(q.part("fsdp"), "zh")).group(1))
    assert abs(share * shards - p["state_gb"] * GB) <= shards, (shards, share)


def _numbers(text: str) -> set[float]:
    return {float(x) for x in re.findall(r"\d+(?:\.\d+)?", text)}


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_the_working_shows_the_numbers_as_the_question_does(seed):
    """R.ridge_point shows 1438 TFLOPS: its working says 1438e12, not 1440e12 (and so for every R
    question whose working restates its premises)."""
    for qid in ("R.ridge_point", "R.decode_floor", "R.ci95"):
        v = bank.get(qid).variant(seed)
        shown = _numbers(v.text("en"))
        for part in v.parts():
            how = v.how(part, "en") or ""
            premises = _numbers(re.sub(r"e\d+|1\.96|sqrt|x \d+(\.\d+)? bytes|x [0-9.]+ /", " ", how))
            # ci95's 1 - p is derived, not a premise
            derived = {round(1 - x, 2) for x in shown}
            assert premises <= shown | derived, (qid, v.text("en"), how)
