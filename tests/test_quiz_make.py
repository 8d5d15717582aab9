"""``make quiz`` on an installed venv installs nothing again (issue 26's follow-up): the Makefile's
install stamps follow what was installed (pyproject.toml and the lock, by content), so a checkout,
merge or touch that leaves them unchanged does not re-run pip; a changed pin installs once. Run on a
copy of the Makefile with a stand-in venv python that only logs its calls."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def project(tmp_path):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy(ROOT / name, tmp_path / name)
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    log = tmp_path / "calls.log"
    fake = bin_ / "python"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {log}\n')
    fake.chmod(0o755)
    return tmp_path, log


def _make(path, target="venv"):
    subprocess.run(["make", "-s", target], cwd=path, check=True, capture_output=True, text=True, timeout=60)


def _calls(log):
    return log.read_text().splitlines() if log.exists() else []


def test_an_installed_venv_is_not_installed_again(project):
    path, log = project
    _make(path)
    first = _calls(log)
    assert any("pip install" in c for c in first), first  # a fresh venv installs
    later = time.time() + 5  # a checkout or merge: newer files, same contents
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        os.utime(path / name, (later, later))
    _make(path)
    _make(path)
    assert _calls(log) == first, _calls(log)[len(first) :]
    with open(path / "requirements.lock", "a") as f:  # a changed pin installs once
        f.write("# changed\n")
    _make(path)
    n = len(_calls(log))
    assert n > len(first)
    _make(path)
    assert len(_calls(log)) == n
