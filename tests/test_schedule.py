"""make test's scheduler (tests/schedule.py): a module with a module-scoped fixture runs on one
worker, whole; every test runs once; the queue's order is kept; a crashed worker's tests are
handed on. Simulated with stand-in workers: no test is run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests import schedule

SHARED = """
import pytest

@pytest.fixture(scope="module")
def built():
    return 1

@pytest.fixture
def graded(built):
    return built

def test_0(built): pass
def test_1(graded): pass
def test_2(tmp_path): pass
def test_3(graded, tmp_path): pass
def test_4(): pass
def test_5(built): pass
"""
PLAIN = "import pytest\n\n@pytest.fixture\ndef fresh():\n    return 1\n"


class Worker:
    def __init__(self, name: str):
        self.gateway = SimpleNamespace(id=name)
        self.queue: list[int] = []
        self.ran: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices):
        self.queue += indices

    def send_steal(self, indices):  # never asked for: the scheduler does not steal
        raise AssertionError(f"steal {indices}")

    def shutdown(self):
        self.shutting_down = True


@pytest.fixture
def project(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_shared.py").write_text(SHARED)
    (tmp_path / "tests" / "test_plain.py").write_text(PLAIN)
    schedule.sharing_tests.cache_clear()
    return tmp_path


def collection() -> list[str]:
    return [
        *(f"tests/test_plain.py::test_heavy[{i}]" for i in range(3)),
        *(f"tests/test_shared.py::test_{i}" for i in range(6)),
        *(f"tests/test_plain.py::test_light[{i}]" for i in range(9)),
    ]


def scheduler(project, workers):
    tx = [f"{len(workers)}*popen"]
    sched = schedule.UnitScheduling(SimpleNamespace(rootpath=project, getvalue={"tx": tx}.get))
    for w in workers:
        sched.add_node(w)
        sched.add_node_collection(w, collection())
    sched.schedule()
    return sched


def run(sched, workers, crash=None):
    """Each worker runs the head of its queue while it holds the next test (or was told to stop),
    the first worker twice as fast; ``crash``: (worker, after how many tests) dies; returns the
    test it died in (as xdist's controller is told, to report it)."""
    crashed = None
    for tick in range(10_000):
        if sched.tests_finished:
            return crashed
        for w in list(sched.nodes):
            if crash and w is crash[0] and len(w.ran) == crash[1]:
                crashed = sched.remove_node(w)
                continue
            if w.queue and (len(w.queue) >= 2 or w.shutting_down) and (w is workers[0] or tick % 2):
                i = w.queue.pop(0)
                w.ran.append(i)
                sched.mark_test_complete(w, i)
    raise AssertionError("the simulated run did not finish")


def test_a_shared_setup_module_runs_whole_on_one_worker(project):
    workers = [Worker("gw0"), Worker("gw1")]
    sched = scheduler(project, workers)
    run(sched, workers)
    ids = collection()
    shared = {i for i, n in enumerate(ids) if "test_shared" in n and n[-1] in "0135"}
    on = [w for w in workers if shared & set(w.ran)]
    assert len(on) == 1 and shared <= set(on[0].ran), [w.ran for w in workers]
    assert sorted(workers[0].ran + workers[1].ran) == list(range(len(ids)))  # each test once
    assert all(w.ran == sorted(w.ran) for w in workers)  # the queue's order kept on each worker


def test_only_the_tests_using_a_longer_lived_fixture_are_one_unit(project):
    """Directly or through another fixture; a class scope too, and an autouse one takes every test."""
    (project / "tests" / "test_auto.py").write_text(
        "import pytest\n@pytest.fixture(scope='class', autouse=True)\ndef f(): pass\ndef test_a(): pass\n"
    )
    assert schedule.sharing_tests(project / "tests" / "test_shared.py") == {"test_0", "test_1", "test_3", "test_5"}
    assert schedule.sharing_tests(project / "tests" / "test_auto.py") == {"test_a"}
    assert schedule.sharing_tests(project / "tests" / "test_plain.py") == set()
    assert schedule.sharing_tests(project / "tests" / "missing.py") == set()
    assert schedule.shares_setup("tests/test_auto.py::test_a[1-2]", project) == "tests/test_auto.py"
    assert [len(u) for u in schedule.units(collection(), project)] == [1, 1, 1, 4, 1, 1, *[1] * 9]


def test_a_crashed_workers_tests_run_on_the_other(project):
    workers = [Worker("gw0"), Worker("gw1")]
    sched = scheduler(project, workers)
    crashed = run(sched, workers, crash=(workers[1], 1))
    ran = workers[0].ran + workers[1].ran
    assert crashed is not None and collection().index(crashed) not in ran  # reported, not run again
    assert sorted([*ran, collection().index(crashed)]) == list(range(len(collection()))), ran
