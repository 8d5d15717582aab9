"""``make draws``: the mutants and variants graded on other hypothesis draws (GRADER_DRAW_SALT).

A mutant killed only by the usual draw is caught there (stop 32: two A1 boundary mutants survived
once ruff's formatting changed the draws). These tests hold the two halves that make it honest: a
salt changes the draws, and a salted verdict is never reused for the usual draw or another salt.
"""

from __future__ import annotations

from grader.course import catalog
from grader.engine import cache
from grader.engine.plugin import draw_seed

CODE, NODE = b"def f(): ...\n", "test_a3_broadcast.py::test_matches_numpy"


def test_a_salt_draws_other_inputs_and_none_draws_the_usual(monkeypatch):
    monkeypatch.delenv(cache.DRAW_SALT_ENV, raising=False)
    usual = draw_seed(CODE, NODE)
    assert draw_seed(CODE, NODE) == usual  # the same code, the same verdict
    salted = set()
    for salt in ("1", "2"):
        monkeypatch.setenv(cache.DRAW_SALT_ENV, salt)
        salted.add(draw_seed(CODE, NODE))
    assert usual not in salted and len(salted) == 2
    monkeypatch.setenv(cache.DRAW_SALT_ENV, "")
    assert draw_seed(CODE, NODE) == usual  # an empty salt is no salt


def test_a_salted_verdict_is_kept_apart(monkeypatch, tmp_path):
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path)
    ex = catalog.get("A3")
    stub = catalog.ROOT / "exercises" / f"{ex.module}.py"

    def fingerprint(salt: str | None) -> str:
        if salt is None:
            monkeypatch.delenv(cache.DRAW_SALT_ENV, raising=False)
        else:
            monkeypatch.setenv(cache.DRAW_SALT_ENV, salt)
        return cache.ResultCache(catalog.ROOT, name="draws").fingerprint(ex, stub)

    assert len({fingerprint(None), fingerprint("1"), fingerprint("2")}) == 3
