"""Shared fixtures of the project's own tests: graded results, computed once per session.

Grading runs in subprocesses; the runs the selected tests need are done together, in
parallel, the first time one of them is asked for.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import runner

# The tests read the English report (the message ids) whatever the machine's locale; a test of the
# Chinese one asks for it (grader.i18n.use, --lang zh). Set before any grading subprocess starts.
os.environ["GRADER_LANG"] = "en"

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
    return [
        (ex, p)
        for ex in catalog.available()
        for p in sorted((VARIANTS_DIR / ex.module).glob("*.py"))
        if not p.name.startswith("_")
    ]


def killed_by(path: Path, name: str = "KILLED_BY") -> tuple[str, ...]:
    """A mutant's KILLED_BY (or a variant's PASSES), read without importing it."""
    import ast

    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    return ()


def _mode(ex: catalog.Exercise, path: Path) -> dict:
    """How the harness grades a file: a mutant runs only the key points that must catch it (heavy
    exercises stay affordable), a variant only the key points it names. Naming the mistake (replaying a failed call
    against the other mutants) and shrinking a failing input are off: the harness asks only which key points
    fail; test_feedback.py and test_failing_example.py assert on both, with their own gradings."""
    verdict_only = dict(name_mistakes=False, shrink=False)
    if VARIANTS_DIR in path.parents:
        return dict(key_points=killed_by(path, "PASSES"), **verdict_only)
    if MUTANTS_DIR in path.parents:
        return dict(key_points=killed_by(path), **verdict_only)
    return dict(key_points=None, **verdict_only)


def _grade(ex: catalog.Exercise, path: Path):
    return runner.grade_exercise(ex, path, **_mode(ex, path))


class HarnessCache:
    """The harness's verdicts between runs on one clone, by fingerprint (grader/engine/cache.py:
    the file, what it imports, its check and every grader module that check imports, the
    libraries, the machine's capabilities) and grading mode. A fresh clone (CI) has none, so
    the suite is fast without it; ``--fresh-harness`` or GRADER_HARNESS_CACHE=0 ignores it."""

    def __init__(self, enabled: bool, worker: str = ""):
        from grader.engine import cache

        # Each xdist worker writes a store of its own (a whole-file replace would drop the other's
        # entries) and reads every worker's: the next run's split of the tests is not this one's.
        name = f"test-harness-{worker}" if worker else "test-harness"
        self._cache = cache.ResultCache(ROOT, name=name) if enabled else None
        self._others = (
            [
                cache.ResultCache(ROOT, name=p.stem)
                for p in sorted(cache.CACHE_DIR.glob("test-harness*.json"))
                if p.stem != name
            ]
            if enabled
            else []
        )
        self._reusable = cache.reusable
        self._slots: dict[tuple[str, Path], tuple[str, str]] = {}

    def _slot(self, ex: catalog.Exercise, path: Path) -> tuple[str, str]:
        if (ex.id, path) not in self._slots:  # the files do not change during a session
            self._slots[ex.id, path] = self._fingerprint(ex, path)
        return self._slots[ex.id, path]

    def _fingerprint(self, ex: catalog.Exercise, path: Path) -> tuple[str, str]:
        import hashlib

        from grader.engine import cache

        # Mutants and variants import the solutions (theirs and others', C5 P2's) and shared
        # mutant helpers by package name: those count too, beside what the learner-side closure finds.
        h = hashlib.sha256(self._cache.fingerprint(ex, path).encode() + repr(sorted(_mode(ex, path).items())).encode())
        cache._digest(h, cache._closure([path], _in_project))
        return f"{ex.id}:{path.relative_to(ROOT)}", h.hexdigest()

    def get(self, ex: catalog.Exercise, path: Path):
        if self._cache is None:
            return None
        slot, fingerprint = self._slot(ex, path)
        for store in (self._cache, *self._others):
            hit = store.get(ex, fingerprint, slot=slot)
            if hit is not None and self._reusable(hit, ex):
                return hit
        return None

    def put(self, ex: catalog.Exercise, path: Path, result) -> None:
        if self._cache is not None:
            slot, fingerprint = self._slot(ex, path)
            self._cache.put(ex, fingerprint, result, slot=slot)

    def cost(self, ex: catalog.Exercise, path: Path) -> float:
        """Seconds the last grading of this file took, whatever it said; the exercise's time limit
        when never graded here (an order for the plan, never a verdict)."""
        for store in filter(None, (self._cache, *self._others)):
            entry = store._entries.get(self._slot(ex, path)[0])
            try:
                return float(entry["result"]["duration_s"])
            except (TypeError, KeyError, ValueError):
                pass
        return float(ex.timeout_s)


def _in_project(path: Path, name: str, level: int) -> list[Path]:
    """Modules of this project that ``import name`` in ``path`` runs: a sibling by its own name
    (how solutions import each other) or ``solutions.…`` by package, each package's __init__ too."""
    parts = name.split(".")
    if level or not name:
        return []
    if parts[0] != "solutions":
        return [path.parent / f"{parts[0]}.py"]
    found = []
    for i in range(1, len(parts) + 1):
        base = ROOT.joinpath(*parts[:i])
        found += [f for f in (base / "__init__.py", base.with_suffix(".py")) if f.exists()]
    return found


def plan(wanted: list[tuple[catalog.Exercise, Path]], cost) -> list[tuple[catalog.Exercise, Path]]:
    """One grading per (exercise, file), however many tests ask for it, heaviest first: the
    pool's last minutes are short gradings, not one long one with a core idle beside it."""
    unique = list({(ex.id, path): (ex, path) for ex, path in wanted}.values())
    return sorted(unique, key=lambda item: -cost(*item))


class Graded:
    """Lazily graded (exercise, file) pairs; a batch of them runs in parallel."""

    def __init__(self, wanted: list[tuple[catalog.Exercise, Path]], store: HarnessCache | None = None):
        self._wanted = wanted
        self._store = store or HarnessCache(enabled=False)
        self._results: dict[tuple[str, Path], object] = {}

    def _grade_and_keep(self, ex: catalog.Exercise, path: Path):
        hit = self._store.get(ex, path)
        if hit is not None:
            return hit
        res = _grade(ex, path)
        self._store.put(ex, path, res)
        return res

    def get(self, ex: catalog.Exercise, path: Path):
        key = (ex.id, path)
        if key not in self._results:
            todo = plan(
                [(e, p) for e, p in [*self._wanted, (ex, path)] if (e.id, p) not in self._results], self._store.cost
            )
            with ThreadPoolExecutor(max_workers=2) as pool:
                for (e, p), res in zip(todo, pool.map(lambda t: self._grade_and_keep(*t), todo), strict=True):
                    self._results[(e.id, p)] = res
        return self._results[key]


HARNESS_PARAMS = ("solution_of", "stub_of", "mutant", "variant")


def harness_file(item) -> tuple[catalog.Exercise, Path] | None:
    """The (exercise, file) a harness test grades: a solution, a stub, a mutant or a variant."""
    spec = getattr(item, "callspec", None)
    for name in HARNESS_PARAMS:
        if spec and name in spec.params:
            value = spec.params[name]
            if name in ("mutant", "variant"):
                return value
            folder = "solutions" if name == "solution_of" else "exercises"
            return value, ROOT / folder / f"{value.module}.py"
    return None


def xdist_worker(config) -> str:
    """This process's pytest-xdist worker id ("gw0", ...), "" when the tests run in one process."""
    return getattr(config, "workerinput", {}).get("workerid", "")


@pytest.fixture(scope="session")
def graded(request) -> Graded:
    worker = xdist_worker(request.config)
    # In one process the harness grades what every selected test needs in one parallel batch; under
    # xdist the workers are the parallelism and each grades what it is handed (it cannot know the rest).
    wanted = [] if worker else [f for f in map(harness_file, request.session.items) if f]
    enabled = not request.config.getoption("--fresh-harness") and os.environ.get("GRADER_HARNESS_CACHE") != "0"
    return Graded(wanted, HarnessCache(enabled, worker))


@pytest.fixture
def st(tmp_path, monkeypatch):
    """A fresh quiz store (grader/quiz/store.py) under this test's own XDG_DATA_HOME (the quiz tests)."""
    from grader.quiz import store

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(store.MASTERY_DAYS_ENV, raising=False)
    s = store.Store()
    yield s
    s.close()


def pytest_addoption(parser):
    parser.addoption(
        "--exercise",
        action="append",
        default=[],
        metavar="ID[,ID]",
        help="the tests bound to these exercises and every test bound to none (make test "
        "ONLY=A3,P1); the same as -m 'A3 or P1 or not exercise'",
    )
    parser.addoption(
        "--fresh-harness",
        action="store_true",
        help="grade every solution, stub, mutant and variant again (no verdict from an earlier run)",
    )


def exercise_of(item) -> str | None:
    """The exercise a parametrized test is bound to (an Exercise, or an (Exercise, file) pair)."""
    for value in getattr(getattr(item, "callspec", None), "params", {}).values():
        value = value[0] if isinstance(value, tuple) and value else value
        if isinstance(value, catalog.Exercise):
            return value.id
    return None


# Known failures, each an open defect with its reason (xfail, not a pass); empty when none is known.
QUARANTINE: dict[str, str] = {}


def selected(items, wanted: set[str]) -> list:
    """What ``--exercise`` keeps: the tests bound to an exercise in ``wanted`` and every test
    bound to none (a quiz or layout test can fail because of a new exercise too)."""
    return [item for item in items if exercise_of(item) in wanted | {None}]


def mark_exercise(item) -> None:
    """A test bound to an exercise carries the markers ``exercise`` and its id: -m A3, -m 'A3 or not exercise'."""
    ex_id = exercise_of(item)
    if ex_id is not None:
        item.add_marker("exercise")
        item.add_marker(ex_id)


@pytest.hookimpl(tryfirst=True)  # markers first: -m selects on them
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid in QUARANTINE:
            item.add_marker(pytest.mark.xfail(reason=f"open defect: {QUARANTINE[item.nodeid]}", strict=False))
        mark_exercise(item)
    items[:] = heavy_first(items)
    wanted = {i.strip().upper() for arg in config.getoption("--exercise") for i in arg.split(",") if i.strip()}
    if not wanted:
        return
    unknown = wanted - set(catalog.BY_ID)
    if unknown:
        raise pytest.UsageError(f"--exercise: no exercise {', '.join(sorted(unknown))} in the catalog")
    keep = selected(items, wanted)
    config.hook.pytest_deselected(items=[item for item in items if item not in keep])
    items[:] = keep


def heavy_first(items) -> list:
    """The tests sharing a module's setup first (each module's one unit of tests/schedule.py, the
    course build's the longest), then the harness's gradings, the heaviest exercises first (by their
    time limit: every xdist worker must collect the same order, so nothing measured on this machine
    decides it), then the rest: the last minutes are short tests, not a P4 training run with a core
    idle beside it."""
    from tests.schedule import shares_setup

    root = Path(items[0].config.rootpath) if items else ROOT
    shared = [item for item in items if shares_setup(item.nodeid, root)]
    harness = sorted((item for item in items if harness_file(item)), key=lambda item: -harness_file(item)[0].timeout_s)
    first = {id(item) for item in (*shared, *harness)}
    return [*shared, *harness, *(item for item in items if id(item) not in first)]


def pytest_configure(config):
    config.addinivalue_line("markers", "exercise: a test bound to one exercise (its id is a marker too)")
    config.addinivalue_line("markers", "quiet: needs the machine to itself (make test runs these last, alone)")
    for ex_id in catalog.BY_ID:
        config.addinivalue_line("markers", f"{ex_id}: a test bound to exercise {ex_id}")
    if grades_here(config):
        runner.warm_up(heavy=True)  # hundreds of check processes: preload torch & co. once


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: absent under -p no:xdist
def pytest_xdist_make_scheduler(config, log):
    """``-n N --dist load`` (make test): tests/schedule.py, a module-scoped setup on one worker, once."""
    if config.getvalue("dist") == "load":
        from tests.schedule import UnitScheduling

        return UnitScheduling(config, log)
    return None


def grades_here(config) -> bool:
    """Whether this process runs tests: not pytest-xdist's controller, whose zygote (~4.5 s of CPU
    importing torch & co., measured) would serve no learner while the workers start theirs."""
    return bool(xdist_worker(config)) or not getattr(config.option, "numprocesses", None)


# Measures over many tests, which xdist runs in different processes: each test records its outcome
# (record_property), and the process that reports (the xdist controller, or the only one) sums them.
MUTANT_KILLED = "mutant_killed"  # (exercise/mutant, killed?): tests/test_check_validity.py
MEASURES: dict[str, list] = {}
MEASURE_FAILURES: list[str] = []


@pytest.fixture
def measure(request):
    """``measure(name, value)``: this test's outcome for a measure over many (MEASURES), in the report's
    user_properties, which xdist sends to the controller (record_property warns under junit xunit2)."""
    return lambda name, value: request.node.user_properties.append((name, value))


def pytest_runtest_logreport(report):
    if report.when == "call":
        for name, value in report.user_properties:
            MEASURES.setdefault(name, []).append(value)


def pytest_sessionfinish(session):
    from tests.test_naming import NAMED_PROPERTY, named_share_failure

    if xdist_worker(session.config):
        return
    failure = named_share_failure(MEASURES.get(NAMED_PROPERTY, []))
    if failure:
        MEASURE_FAILURES.append(failure)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config):
    outcomes = MEASURES.get(MUTANT_KILLED, [])
    if outcomes:
        killed = sum(k for _, k in outcomes)
        terminalreporter.write_sep(
            "=", f"mutation score: {killed}/{len(outcomes)} killed ({killed / len(outcomes):.0%})"
        )
        for name, k in outcomes:
            if not k:
                terminalreporter.write_line(f"  survived: {name}")
    for failure in MEASURE_FAILURES:
        terminalreporter.write_sep("=", f"FAILED (over many tests) {failure}", red=True)


@pytest.fixture
def speak(monkeypatch):
    """Set the language for one test (grader.i18n), as `--lang` does; restored after it."""
    from grader import i18n

    def use(code: str) -> None:
        monkeypatch.setattr(i18n, "_lang", code)
        monkeypatch.setenv("GRADER_LANG", code)

    return use
