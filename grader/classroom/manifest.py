"""The course's seal on the grader: hashes of every file that decides a verdict, recorded when the
course is built, checked before autograde grades anything.

``grader classroom build`` writes ``<course>/.grader/manifest.json``: the SHA-256 of each file of
``grader/`` (the hidden checks, their ground truth, the engine, the sandbox, the drivers and
given code) and of the reference answers in ``solutions/``. ``nbgrader autograde`` stops before
grading (``pipeline.require_manifest``, from the course's config) and again before each notebook
(``pipeline.GradeAnswerCells``) if any of them changed, was added or went missing, naming them.
A deliberate change (a fixed check) is sealed again with ``grader classroom seal <course>``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from grader.course.catalog import ROOT

MANIFEST = Path(".grader") / "manifest.json"


class Mismatch(Exception):
    """The grader's files are not those the course was built with."""


def sealed_files() -> list[Path]:
    """What decides a verdict: every Python file of the grader and the reference answers."""
    return sorted([*(ROOT / "grader").rglob("*.py"), *(ROOT / "solutions").glob("*.py")])


def hashes() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sealed_files()}


def write(course: str | Path) -> Path:
    path = Path(course) / MANIFEST
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"project": str(ROOT), "files": hashes()}, indent=1, sort_keys=True))
    return path


def verify(course: str | Path) -> None:
    """Raise :class:`Mismatch`, naming the files, unless the grader's files hash as recorded."""
    path = Path(course) / MANIFEST
    try:
        recorded = json.loads(path.read_text())["files"]
    except (OSError, ValueError, KeyError, TypeError):
        raise Mismatch(
            f"{path} is missing or unreadable: rebuild the course with `grader classroom build` "
            "(or seal it with `grader classroom seal`)"
        ) from None
    now = hashes()
    changed = sorted(f for f in recorded.keys() & now.keys() if recorded[f] != now[f])
    missing = sorted(recorded.keys() - now.keys())
    added = sorted(now.keys() - recorded.keys())
    if changed or missing or added:
        parts = [
            f"{label}: {', '.join(names)}"
            for label, names in (("changed", changed), ("missing", missing), ("added", added))
            if names
        ]
        raise Mismatch(
            f"the grader's files differ from the manifest recorded when the course was built "
            f"({path}); {'; '.join(parts)}. Nothing was graded. If the change is yours, restore the "
            f"files (git checkout) or seal them with `grader classroom seal {Path(course)}`"
        )
