"""The checks' shared fixtures live in grader/checks/conftest.py, imported by no check file: the check
process must load it. It runs pytest with ``-c /dev/null`` and ``--rootdir`` = the checks' folder
(grader/engine/runner.py), and pytest's conftest search then depends on where that ini file lies;
so this grades through the runner's own invocation a check whose every key point needs a fixture
that only a conftest.py beside it defines. Also through that invocation: what multiprocessing made
in the check process is released when it ends (it ends with os._exit)."""

from __future__ import annotations

from pathlib import Path

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


def _probe_check(tmp_path, monkeypatch, body: str):
    """A3 with a check of the given body for every key point, through the runner."""
    ex = catalog.get("A3")
    checks = tmp_path / "checks"
    checks.mkdir()
    (checks / ex.check_file.name).write_text("".join(f"def test_{kp.id}():\n{body}\n\n" for kp in ex.key_points))
    monkeypatch.setattr(catalog, "CHECKS_DIR", checks)
    return runner.grade_exercise(ex, ROOT / "solutions" / f"{ex.module}.py", name_mistakes=False)


def test_a_check_processs_multiprocessing_semaphores_are_released(tmp_path, monkeypatch):
    """A check process is a fork-server child: a lock it makes (a tqdm bar's, while transformers
    builds the model cache) is a named semaphore registered with the grader's resource tracker, which
    reported it leaked when `grader grade` exited, unless the check process releases it as it ends."""
    names = tmp_path / "names"
    body = (
        "    import multiprocessing\n"
        "    lock = multiprocessing.Lock()\n"
        f"    open({str(names)!r}, 'a').write(lock._semlock.name + '\\n')\n"
        "    globals().setdefault('kept', []).append(lock)"
    )
    result = _probe_check(tmp_path, monkeypatch, body)
    assert [k.status for k in result.key_points] == ["passed"] * len(result.key_points), result.key_points
    made = names.read_text().split()
    assert made and all(name.startswith("/") for name in made), made  # named: the fork server's context
    left = [name for name in made if Path("/dev/shm", "sem." + name[1:]).exists()]
    assert not left, f"semaphores left to the resource tracker: {left}"
