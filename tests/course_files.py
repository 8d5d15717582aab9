"""Where the project's tests find the course text (the course is not shipped with the project).

In order: ``$TOOLBOX_COURSE_DIR``; ``shared/course`` beside the project; the same beside the
checkout this one was cloned from (a CI clone in /tmp of the main checkout). A test that needs
the course and finds none fails, saying how to point at it: a skipped fidelity test is a silent one.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from grader.course.catalog import ROOT

PART_7 = "000_1b4e932c79c828c0.txt"  # the review with the self-test (sets R, A, B, C)


def _origin() -> Path | None:
    try:
        url = subprocess.run(
            ["git", "-C", str(ROOT), "config", "--get", "remote.origin.url"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    path = Path(url.removeprefix("file://"))
    return path if url and path.is_absolute() else None


def candidates() -> list[Path]:
    if os.environ.get("TOOLBOX_COURSE_DIR"):
        return [Path(os.environ["TOOLBOX_COURSE_DIR"])]
    found = [ROOT.parent / "shared" / "course"]
    origin = _origin()
    if origin is not None:
        found.append(origin.parent / "shared" / "course")
    return found


def course_dir() -> Path:
    """The folder of the course's .txt files, or a failed test that says where it looked."""
    for d in candidates():
        if (d / PART_7).is_file():
            return d
    pytest.fail(
        "the course text is needed by this test and was not found in "
        + ", ".join(map(str, candidates()))
        + ": set TOOLBOX_COURSE_DIR to the folder holding the course's .txt files "
        f"({PART_7} is part 7)",
        pytrace=False,
    )
