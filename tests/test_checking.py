"""The helpers every check uses say expected vs got, and keep the check's hint on every failure."""

from __future__ import annotations

import pytest
import torch

from grader.checks.support.checking import KeyPointFailure, expect_close

REFERENCE = torch.zeros(2, 3)
WRONG = {
    "values": torch.ones(2, 3),
    "nan": torch.full((2, 3), float("nan")),
    "shape": torch.zeros(3, 2),
    "dtype": torch.zeros(2, 3, dtype=torch.float64),
    "not_a_tensor": [[0.0] * 3] * 2,
}


@pytest.mark.parametrize("case", sorted(WRONG))
def test_expect_close_keeps_the_hint(case):
    with pytest.raises(KeyPointFailure) as failure:
        expect_close(WRONG[case], REFERENCE, "attention output", atol=1e-6, hint="scale by 1/sqrt(d_head)")
    assert failure.value.hint == "scale by 1/sqrt(d_head)"
    assert "hint:     scale by 1/sqrt(d_head)" in str(failure.value)
