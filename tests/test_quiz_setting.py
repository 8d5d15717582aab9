"""The mastery interval is a setting with a floor: no value of it masters a question in one sitting
(a red-team run set it to 0 and mastered R.ignore_index in round 2 of one sitting)."""

from __future__ import annotations

import pytest

from grader.quiz import store


@pytest.mark.parametrize("value", ["0", "0.001", "-3", "nan", "inf", "two"])
def test_no_setting_goes_below_a_day(monkeypatch, value):
    monkeypatch.setenv(store.MASTERY_DAYS_ENV, value)
    assert store.MIN_MASTERY_DAYS <= store.mastery_days() < float("inf")


def test_a_longer_interval_is_kept(monkeypatch):
    monkeypatch.setenv(store.MASTERY_DAYS_ENV, "5")
    assert store.mastery_days() == 5


def test_same_day_recall_never_masters(monkeypatch):
    monkeypatch.setenv(store.MASTERY_DAYS_ENV, "0")
    reviews = [
        store.Review(at=0.0, correct=False),
        store.Review(at=3600.0, correct=True),
        store.Review(at=7200.0, correct=True),
    ]
    assert not store.memory(reviews).mastered
