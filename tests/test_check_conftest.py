"""The checks' shared fixtures live in grader/checks/conftest.py, imported by no check file: the check
process must load it. It runs pytest with ``-c /dev/null`` and ``--rootdir`` = the checks' folder
(grader/engine/runner.py), and pytest's conftest search then depends on where that ini file lies;
so this grades through the runner's own invocation a check whose every key point needs a fixture
that only a conftest.py beside it defines."""

from __future__ import annotations

from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import runner

CONFTEST = """
import pathlib
import pytest


@pytest.fixture
def probe():
    pathlib.Path({marker!r}).write_text("loaded")
"""


def test_the_check_process_loads_the_checks_conftest(tmp_path, monkeypatch):
    ex = catalog.get("A3")
    checks = tmp_path / "checks"
    checks.mkdir()
    marker = tmp_path / "conftest-loaded"
    (checks / "conftest.py").write_text(CONFTEST.format(marker=str(marker)))
    (checks / ex.check_file.name).write_text(
        "".join(f"def test_{kp.id}(probe):\n    pass\n\n\n" for kp in ex.key_points)
    )
    monkeypatch.setattr(catalog, "CHECKS_DIR", checks)  # ex.check_file now names the probe check
    result = runner.grade_exercise(ex, ROOT / "solutions" / f"{ex.module}.py", name_mistakes=False)
    assert marker.read_text() == "loaded", [(k.id, k.status, k.message) for k in result.key_points]
    assert [k.status for k in result.key_points] == ["passed"] * len(ex.key_points)
