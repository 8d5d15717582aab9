"""Fixtures shared by the checks that use SmolLM2 (B3, P4, X5); a check imports them by name.

``cache``: the de-quantised SmolLM2-135M-Instruct (grader.engine.model_cache), made once per machine;
``tokenizer``: its real tokenizer. Both once per check module.
"""

import pytest

from grader.engine import model_cache
from grader.given import smollm


@pytest.fixture(scope="module")
def cache():
    return model_cache.ensure_cache()


@pytest.fixture(scope="module")
def tokenizer(cache):
    return smollm.load_tokenizer(cache)
