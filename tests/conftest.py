"""Shared fixtures of the project's own tests: graded results, computed once per session.

Grading runs in subprocesses; the runs the selected tests need are done together, in
parallel, the first time one of them is asked for.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grader.course import catalog
from grader.engine import runner
from grader.course.catalog import ROOT

MUTANTS_DIR = ROOT / "solutions" / "mutants"
VARIANTS_DIR = ROOT / "solutions" / "variants"


def own_answer(reference: Path, dest: Path, who: str = "a learner") -> Path:
    """A right answer of the learner's own: the reference plus a line of its own (a verbatim
    copy of the reference is reported "identical to the reference answer", without credit)."""
    dest = dest / reference.name if dest.is_dir() else dest
    dest.write_text(reference.read_text() + f"\n\nANSWERED_BY = {who!r}\n")
    return dest


def mutants_of(ex: catalog.Exercise) -> list[Path]:
    return sorted(p for p in (MUTANTS_DIR / ex.module).glob("*.py") if not p.name.startswith("_"))


def all_mutants() -> list[tuple[catalog.Exercise, Path]]:
    return [(ex, m) for ex in catalog.available() for m in mutants_of(ex)]


def all_variants() -> list[tuple[catalog.Exercise, Path]]:
    """Valid answers written differently from the solution (``solutions/variants/<module>/*.py``,
    ``PASSES = ("key_point", ...)``): a check must accept them (issue 17: valid answers rejected)."""
    return [(ex, p) for ex in catalog.available()
            for p in sorted((VARIANTS_DIR / ex.module).glob("*.py")) if not p.name.startswith("_")]


def killed_by(path: Path, name: str = "KILLED_BY") -> tuple[str, ...]:
    """A mutant's KILLED_BY (or a variant's PASSES), read without importing it."""
    import ast

    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    return ()


def _grade(ex: catalog.Exercise, path: Path):
    # A mutant runs only the key points that must catch it: heavy exercises stay affordable.
    is_mutant = MUTANTS_DIR in path.parents
    if VARIANTS_DIR in path.parents:
        return runner.grade_exercise(ex, path, key_points=killed_by(path, "PASSES"), name_mistakes=False)
    # Naming the mistake (replaying a failed call against the other mutants) is tested in test_feedback.py.
    return runner.grade_exercise(ex, path, key_points=killed_by(path) if is_mutant else None,
                                 name_mistakes=not is_mutant)


class Graded:
    """Lazily graded (exercise, file) pairs; a batch of them runs in parallel."""

    def __init__(self, wanted: list[tuple[catalog.Exercise, Path]]):
        self._wanted = wanted
        self._results: dict[tuple[str, Path], object] = {}

    def get(self, ex: catalog.Exercise, path: Path):
        key = (ex.id, path)
        if key not in self._results:
            todo = [(e, p) for e, p in self._wanted if (e.id, p) not in self._results]
            if (ex, path) not in todo:
                todo.append((ex, path))
            with ThreadPoolExecutor(max_workers=2) as pool:
                for (e, p), res in zip(todo, pool.map(lambda t: _grade(*t), todo)):
                    self._results[(e.id, p)] = res
        return self._results[key]


@pytest.fixture(scope="session")
def graded(request) -> Graded:
    wanted = []
    for item in request.session.items:
        for name in ("solution_of", "stub_of", "mutant", "variant"):
            spec = getattr(item, "callspec", None)
            if spec and name in spec.params:
                value = spec.params[name]
                ex, path = value if name in ("mutant", "variant") else (value, None)
                if path is None:
                    folder = "solutions" if name == "solution_of" else "exercises"
                    path = ROOT / folder / f"{ex.module}.py"
                wanted.append((ex, path))
    return Graded(wanted)


def pytest_addoption(parser):
    parser.addoption("--exercise", action="append", default=[], metavar="ID[,ID]",
                     help="only the tests bound to these exercises (make test ONLY=A3,P1)")


def exercise_of(item) -> str | None:
    """The exercise a parametrized test is bound to (an Exercise, or an (Exercise, file) pair)."""
    for value in getattr(getattr(item, "callspec", None), "params", {}).values():
        value = value[0] if isinstance(value, tuple) and value else value
        if isinstance(value, catalog.Exercise):
            return value.id
    return None


# Known failures, each an open defect with its reason (xfail, not a pass); empty when none is known.
QUARANTINE: dict[str, str] = {}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid in QUARANTINE:
            item.add_marker(pytest.mark.xfail(reason=f"open defect: {QUARANTINE[item.nodeid]}", strict=False))
    wanted = {i.strip().upper() for arg in config.getoption("--exercise") for i in arg.split(",") if i.strip()}
    if not wanted:
        return
    unknown = wanted - set(catalog.BY_ID)
    if unknown:
        raise pytest.UsageError(f"--exercise: no exercise {', '.join(sorted(unknown))} in the catalog")
    keep = [item for item in items if exercise_of(item) in wanted]
    config.hook.pytest_deselected(items=[item for item in items if item not in keep])
    items[:] = keep


def pytest_configure(config):
    runner.warm_up(heavy=True)  # hundreds of check processes: preload torch & co. once
    config._mutation_tally = {"killed": 0, "total": 0, "survivors": []}


def pytest_terminal_summary(terminalreporter, config):
    tally = config._mutation_tally
    if tally["total"]:
        score = tally["killed"] / tally["total"]
        terminalreporter.write_sep("=", f"mutation score: {tally['killed']}/{tally['total']} killed ({score:.0%})")
        for s in tally["survivors"]:
            terminalreporter.write_line(f"  survived: {s}")
