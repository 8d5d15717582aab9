"""Contracts a knowing learner could fail on (learners' findings): every input a stub's function is
given has its meaning stated, and where a verdict combines tools, the contract says how."""

import inspect
import re

from exercises import b2_is_it_real, c4_oom_attribution


def test_every_key_of_an_oom_event_is_defined():
    doc = inspect.getdoc(c4_oom_attribution.attribute_oom)
    for key in ("when", "training", "lora", "no_grad"):
        assert re.search(rf"``{key}``(:|\s+is)\s", doc), key  # "``key``: what it means"


def test_b2_verdict_says_how_the_tools_combine_and_which_p():
    doc = " ".join(inspect.getdoc(b2_is_it_real.verdict).split())
    assert "both must" in doc and "``p`` = " in doc and "n = n_questions" in doc


def test_b2_verdict_names_the_band_width_the_check_takes():
    """Issue 23: the course never says how wide it shades a band; the stub names the check's width."""
    from grader.checks.test_b2_is_it_real import BANDS

    doc = " ".join(inspect.getdoc(b2_is_it_real.verdict).split())
    assert BANDS == {"k": 1.0, "spread": "sem"}
    assert "plus or minus one standard error of that mean" in doc and "divided by the square root" in doc


def test_b2_diff_records_says_how_keys_are_spelled():
    doc = " ".join(inspect.getdoc(b2_is_it_real.diff_records).split())
    assert "spelled exactly as in ``a`` and ``b``" in doc


def test_c3_moe_contract_does_not_state_the_course_answer():
    from exercises import c3_decode_roofline

    doc = " ".join(inspect.getdoc(c3_decode_roofline.moe_decode_cost).split())
    assert (
        "worst case" not in doc and ("total_params / active_params") not in doc
    )  # 「全部专家权重都要读」 in other words
