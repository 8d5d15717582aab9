"""HIDDEN: the fixtures several checks share (B3, P4, X5 use SmolLM2). pytest loads this file for
every check file below it, also in the check process (``-c /dev/null`` leaves the conftest search
on, tests/test_check_conftest.py proves it); the verdict cache counts it among each check's files.

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
