"""Red-team cheats: answers that game a check. Each must fail the key points it games; where that
key point can be not verifiable on a loaded machine (X1's speed-up), that verdict is accepted and
the test is skipped (a mutant would have to be killed on every machine). A file here is appended
to the reference answer: its functions replace the reference's."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.course import catalog
from grader.engine import runner

HERE = Path(__file__).parent / "cheats"

CASES = [
    (catalog.get("X1"), "x1_sleepy_threads_one_worker.py", ("processes_speed_up",)),
    (catalog.get("A1"), "a1_child_interpreter.py", ("peak_independent_of_size",)),
]


@pytest.mark.parametrize("ex,name,key_points", CASES, ids=[c[1] for c in CASES])
def test_cheat_is_caught(ex, name, key_points, tmp_path):
    answer = tmp_path / f"{ex.module}.py"
    reference = catalog.ROOT / "solutions" / f"{ex.module}.py"  # the cheat replaces some of its functions
    answer.write_text(reference.read_text() + "\n\n# ---- the cheat\n" + (HERE / name).read_text())
    res = runner.grade_exercise(ex, answer, key_points=key_points)
    if all(kp.status == "not_verifiable" for kp in res.key_points):
        pytest.skip(f"not verifiable on this machine now: {res.key_points[0].message}")
    passed = [kp.key_point for kp in res.key_points if kp.status in ("passed", "not_verifiable")]
    assert not passed, [(kp.key_point, kp.status, kp.message) for kp in res.key_points]
