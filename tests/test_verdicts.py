"""Verdicts that hold on a busy machine and test what the stub asks (issue 29): fast tests that
call a check's pieces with scripted or in-process learners."""

from __future__ import annotations

import importlib
import importlib.util
import types
from pathlib import Path

import pytest

from grader.course.catalog import ROOT


def _module(path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(f"_verdict_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _DrivenInProcess:
    """Runs a driver on a module in this process (the purity driver deep-copies what it needs)."""

    def __init__(self, module):
        self.module = module

    def drive(self, driver, *args, **kwargs):
        mod_name, _, fn = driver.partition(":")
        return getattr(importlib.import_module(mod_name), fn)(self.module, *args, **kwargs)


X5_VARIANTS = ROOT / "solutions" / "variants" / "x5_loss_falls_never_stops"
X5_MUTANTS = ROOT / "solutions" / "mutants" / "x5_loss_falls_never_stops"


def test_x5_mask_eos_may_reuse_an_unchanged_list():
    """The stub asks for a new dict and the argument unmodified: reusing the unchanged input_ids
    list passes; returning the argument itself or writing into it still fails."""
    from grader.checks.test_x5_loss_falls_never_stops import _mask_eos_contract

    assert _mask_eos_contract(_DrivenInProcess(_module(X5_VARIANTS / "reuses_input_ids.py"))) is None
    what, _ = _mask_eos_contract(_DrivenInProcess(_module(X5_MUTANTS / "mutates_argument.py")))
    assert "changed the example it was given" in what, what
    same = types.SimpleNamespace(mask_eos=lambda example, eos_id: example)  # the argument, unchanged, returned
    what, _ = _mask_eos_contract(_DrivenInProcess(same))
    assert "returned the example it was given" in what, what
