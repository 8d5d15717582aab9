"""The module map (docs/architecture.md, "How grading works") lists every module of grader/
(per-exercise checks and drivers aside): the map is how a new maintainer finds their way, so it
must not go stale."""

from __future__ import annotations

import re

from grader.course.catalog import ROOT


def test_module_map_lists_every_module():
    page = (ROOT / "docs" / "architecture.md").read_text()
    block = page[page.index("## How grading works") : page.index("- **A check never imports")]
    named = set(re.findall(r"[\w/]*?(\w+\.py)", block))
    missing = []
    for path in sorted((ROOT / "grader").rglob("*.py")):
        rel = path.relative_to(ROOT / "grader")
        if path.name == "__init__.py" or rel.parts[0] == "drivers" or path.name.startswith("test_"):
            continue  # package docstrings, and the per-exercise files the map names by pattern
        if path.name not in named:
            missing.append(str(rel))
    assert not missing, f"the module map of docs/architecture.md does not list: {missing}"


def test_every_package_says_who_may_see_it():
    for init in sorted((ROOT / "grader").rglob("__init__.py")):
        if init.parent == ROOT / "grader":
            continue
        assert init.read_text().strip().startswith('"""'), f"{init.relative_to(ROOT)} needs a docstring"
