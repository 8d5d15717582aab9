"""The walls between the grader's parts, stated as imports and scanned in every module of grader/,
solutions/ and exercises/ (a static scan: milliseconds, no grading):

* the learner's side (grader/inside, grader/given, grader/drivers, solutions, exercises: what
  runs in the learner's process) imports no grader package but those the sandbox mounts
  (``grader.inside.VISIBLE``): a check-side import there would fail in the sandbox, or worse,
  work outside it;
* no module imports a check file (grader/checks/test_*.py: pytest runs it by path). Importing
  another exercise's check file would run its tests' module code in this exercise's process and
  tie the two verdicts together; ground truth two exercises or the quiz share lives in
  grader/checks/truth/, helpers in grader/checks/support/ (docs/maintaining.md, the checklist);
* the quiz takes its right answers from grader/checks/truth/ only, and only in grader/quiz/truth.py.

Calling ``test_x.hypothesis.inner_test`` runs a test without its own draws, settings and
failure reporting (Hypothesis internals, not an API): no check does.
``test_a_crossed_wall_is_reported`` plants each kind of crossing and sees it reported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader import inside
from grader.course.catalog import CHECKS_DIR, ROOT

CHECK_MODULES = {p.stem for p in CHECKS_DIR.glob("test_*.py")}
MODULES = sorted(p for top in ("grader", "solutions", "exercises") for p in (ROOT / top).rglob("*.py"))
LEARNER_SIDE = ("grader.inside", "grader.given", "grader.drivers", "solutions", "exercises")
QUIZ_TRUTH = "grader.quiz.truth"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _within(name: str, packages) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def imported_modules(module: str, source: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module an import statement names (anywhere: a function's import runs when it does),
    relative imports resolved, ``from pkg import name`` as ``pkg.name`` too; and literal names
    given to ``importlib.import_module`` / ``__import__``."""
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names if alias.name != "*"]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def walls_crossed(module: str, source: str, is_package: bool = False) -> list[str]:
    """What ``module`` (its dotted name, its source) imports across a wall: one entry per line
    and wall."""
    crossed: dict[tuple[int, str], str] = {}
    for line, name in imported_modules(module, source, is_package):
        walls = []
        if (
            _within(module, LEARNER_SIDE)
            and _within(name, ("grader",))
            and name != "grader"
            and not _within(name, inside.VISIBLE)
        ):
            walls.append(f"runs in the learner's process, which sees only {', '.join(inside.VISIBLE)}")
        if _within(name, ("grader.checks",)) and any(part in CHECK_MODULES for part in name.split(".")):
            walls.append("a check file: shared ground truth goes in grader/checks/truth/")
        if _within(module, ("grader.quiz",)) and _within(name, ("grader.checks",)):
            if module != QUIZ_TRUTH:
                walls.append("only grader/quiz/truth.py takes check-side ground truth")
            elif not _within(name, ("grader.checks.truth",)):
                walls.append("the quiz's ground truth comes from grader/checks/truth/ only")
        for wall in walls:
            crossed.setdefault((line, wall), f"line {line}: {name} ({wall})")
    return list(crossed.values())


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_module_crosses_a_wall(path: Path):
    crossed = walls_crossed(module_name(path), path.read_text(), path.name == "__init__.py")
    assert not crossed, f"{path.relative_to(ROOT)} imports across a wall: {crossed}"


CROSSINGS = {  # (module, source): the wall it crosses
    ("grader.inside.worker", "from grader.isolation import sandbox"): "learner's process",
    ("grader.given.smollm", "def key():\n    from grader.isolation import files"): "learner's process",
    ("grader.given.sft", "from ..checks.truth import sft"): "learner's process",
    ("grader.drivers.a4_grad_accum", "import grader.engine.cache"): "learner's process",
    ("solutions.a3_broadcast", "from grader.checks.truth import kv_cache"): "learner's process",
    ("grader.inside", "from .. import course"): "learner's process",
    ("grader.checks.test_a2_nbytes_index", "from grader.checks.test_a3_broadcast import ALL"): "a check file",
    ("grader.checks.test_c5_four_additions", "from grader.checks import test_p2_training_loop"): "a check file",
    ("grader.checks.truth.sft", "from ..test_p4_lora_sft import x"): "a check file",
    ("grader.engine.misconceptions", "importlib.import_module('grader.checks.test_a3_broadcast')"): "a check file",
    ("grader.quiz.truth", "from grader.checks.test_a1_streaming import measured_factor"): "a check file",
    ("grader.quiz.truth", "from grader.checks.support import memo"): "grader/checks/truth/ only",
    ("grader.quiz.bank.a", "from grader.checks.truth import sft"): "only grader/quiz/truth.py",
}
ALLOWED = [
    ("grader.quiz.truth", "from grader.checks.truth import sft"),
    ("grader.drivers.p4_lora_sft", "from grader.given import smollm\nfrom grader.inside import codec"),
    ("grader.given.sft", "from .smollm import EOS_TOKEN\nimport grader"),
    ("solutions.mutants.a3_broadcast.x", "from solutions.a3_broadcast import *"),
    (
        "grader.checks.test_a3_broadcast",
        "from grader.checks.truth import sft\nfrom grader.isolation.learner import Learner",
    ),
    ("grader.isolation.learner", "from grader.inside import codec, watch"),
]


@pytest.mark.parametrize("case", CROSSINGS, ids=[f"{m}: {s.splitlines()[-1].strip()}" for m, s in CROSSINGS])
def test_a_crossed_wall_is_reported(case):
    module, source = case
    crossed = walls_crossed(module, source, is_package=module == "grader.inside")
    assert any(CROSSINGS[case] in c for c in crossed), crossed


@pytest.mark.parametrize("case", ALLOWED, ids=[m for m, _ in ALLOWED])
def test_an_import_within_the_walls_passes(case):
    assert walls_crossed(*case) == []


@pytest.mark.parametrize("path", sorted(CHECKS_DIR.rglob("*.py")), ids=lambda p: str(p.relative_to(CHECKS_DIR)))
def test_no_hypothesis_internals(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = sorted(
        {
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and node.attr in ("inner_test", "hypothesis")
            and not (isinstance(node.value, ast.Name) and node.value.id == "hypothesis")
        }
    )
    assert not bad, (
        f"{path.name} reaches into a test's Hypothesis wrapper (.hypothesis.inner_test) at "
        f"line(s) {bad}: draw with @given, or call a plain function"
    )
