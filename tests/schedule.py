"""make test's order across pytest-xdist workers (``-n N --dist load``; tests/conftest.py hands
this scheduler to xdist): one queue in the collection's order (tests/conftest.py heavy_first), each
worker given the next unit as it frees up, where a unit is one test, or every test of a module that
uses one of its module-scoped fixtures (the course build, Gradescope's image, the batch class), so
that setup runs on one worker, once. Under worksteal a worker that ran dry took the tail of the
other's queue, and with it the course build a second time (measured: 2 and 3 builds per run,
docs/performance.md).

The order only: which worker runs a test never decides its verdict.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from xdist.scheduler.worksteal import MIN_PENDING, WorkStealingScheduling

SHARED_SCOPES = {"module", "package", "class"}


def _fixture_call(deco) -> dict | None:
    """A ``@pytest.fixture`` / ``@pytest.fixture(...)`` decorator's keywords (``{}`` bare), else None."""
    func = deco.func if isinstance(deco, ast.Call) else deco
    if "fixture" not in ast.unparse(func):
        return None
    return {kw.arg: kw.value.value for kw in getattr(deco, "keywords", []) if isinstance(kw.value, ast.Constant)}


def _args(fn) -> list[str]:
    return [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]


@cache
def sharing_tests(path: Path) -> frozenset[str]:
    """The test functions of the module at ``path`` that use a fixture it defines with a scope
    longer than a test (``@pytest.fixture(scope="module")``), as an argument, through another of
    its fixtures, or autouse: they must run on one worker for it to be set up once."""
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError, ValueError):
        return frozenset()
    fixtures: dict[str, tuple[dict, list[str]]] = {}
    tests: dict[str, list[str]] = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        marks = [m for m in map(_fixture_call, fn.decorator_list) if m is not None]
        if marks:
            fixtures[marks[0].get("name", fn.name)] = (marks[0], _args(fn))
        elif fn.name.startswith("test"):
            tests[fn.name] = _args(fn)

    @cache
    def shared(name: str) -> bool:
        kws, deps = fixtures[name]
        return kws.get("scope") in SHARED_SCOPES or any(shared(d) for d in deps if d in fixtures and d != name)

    autouse = any(kws.get("autouse") and shared(name) for name, (kws, _) in fixtures.items())
    return frozenset(t for t, args in tests.items() if autouse or any(shared(a) for a in args if a in fixtures))


def shares_setup(nodeid: str, root: Path) -> str | None:
    """The module whose longer-lived setup the test ``nodeid`` uses, or None."""
    module, _, rest = nodeid.partition("::")
    name = rest.rpartition("::")[2].partition("[")[0]
    return module if name in sharing_tests(root / module) else None


def units(collection: list[str], root: Path) -> list[list[int]]:
    """The collection's indices as units, in the order of each unit's first test: the tests that
    share a module's setup are one unit (in their order), every other test a unit alone."""
    out: list[list[int]] = []
    grouped: dict[str, list[int]] = {}
    for i, nodeid in enumerate(collection):
        module = shares_setup(nodeid, root)
        if module is None:
            out.append([i])
            continue
        if module not in grouped:
            grouped[module] = []
            out.append(grouped[module])
        grouped[module].append(i)
    return out


class UnitScheduling(WorkStealingScheduling):
    """worksteal's bookkeeping (pending tests per worker, a crashed worker's tests handed on), but no
    initial split and no stealing: an idle worker gets the next unit from the one queue."""

    def __init__(self, config, log=None):
        super().__init__(config, log)
        self.root = Path(config.rootpath)
        self.queue: list[list[int]] = []

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is None:
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            self.collection = next(iter(self.node2collection.values()))
            self.queue = units(self.collection, self.root)
        self.check_schedule()

    def mark_test_pending(self, item: str) -> None:
        assert self.collection is not None
        self.queue.insert(0, [self.collection.index(item)])
        self.check_schedule()

    def remove_node(self, node):
        """A crashed worker: its tests go back to the queue's head (the test it crashed in is reported)."""
        pending = self.node2pending.pop(node)
        crashitem = self.collection[pending.pop(0)] if pending else None
        if pending:
            self.queue.insert(0, pending)
        self.check_schedule()
        return crashitem

    @property
    def tests_finished(self) -> bool:
        return self.collection_is_completed and not self.queue and not any(self.node2pending.values())

    @property
    def has_pending(self) -> bool:
        return bool(self.queue) or any(self.node2pending.values())

    def check_schedule(self) -> None:
        # A worker runs a test only once it holds the next one too (xdist's remote loop): keep
        # MIN_PENDING tests on each while the queue lasts, least loaded first.
        up = sorted((n for n in self.node2pending if not n.shutting_down), key=lambda n: len(self.node2pending[n]))
        for node in up:
            sent: list[int] = []
            while self.queue and len(self.node2pending[node]) + len(sent) < MIN_PENDING:
                sent += self.queue.pop(0)
            if sent:
                self.node2pending[node].extend(sent)
                node.send_runtest_some(sent)
        if not self.queue:
            for node in up:  # nothing left to hand out: each runs its last test now
                if len(self.node2pending[node]) < MIN_PENDING and not node.shutting_down:
                    node.shutdown()
