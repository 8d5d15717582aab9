"""The pytest plugin that turns a check file into key-point results.

The runner starts one pytest process per exercise::

    python -m pytest grader/checks/test_a3_broadcast.py -p grader.engine.plugin \
        --exercise A3 --learner-file exercises/a3_broadcast.py --results out.jsonl

Each test function is one key point (its name without ``test_``). The ``learner`` fixture is a
:class:`grader.isolation.learner.Learner` for the learner's file; every finished key point is appended
to the results file at once, so a crash later loses nothing already graded.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from grader import i18n
from grader.checks.support.checking import KeyPointFailure
from grader.course import catalog
from grader.engine import misconceptions
from grader.engine.cache import DRAW_SALT_ENV
from grader.i18n import _
from grader.isolation import files, learner as learner_module
from grader.isolation.learner import InProcessLearner, Learner, LearnerError, drop_shared_inputs, shared_inputs

# Deterministic: inputs are drawn from a seed tied to the learner's code (see
# pytest_collection_modifyitems), so the same code gets the same verdict on every run.
_GRADING = dict(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    print_blob=False,
    report_multiple_bugs=False,
)
settings.register_profile(
    "grading", **_GRADING, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink]
)
# --no-shrink: the verdict without the smallest failing input (the project's mutant harness asks only
# whether a key point fails; shrinking a failure is most of a failing mutant's time). Same inputs drawn.
settings.register_profile("verdict", **_GRADING, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target])
settings.load_profile(os.environ.get("GRADER_HYPOTHESIS_PROFILE", "grading"))


def pytest_addoption(parser):
    group = parser.getgroup("grader")
    group.addoption("--exercise", help="catalog id of the exercise being graded, e.g. A3")
    group.addoption("--learner-file", help="the learner's module file for this exercise (the runner's copy)")
    group.addoption("--learner-shown-as", help="the learner's own path of that file, for messages")
    group.addoption(
        "--reference-visible",
        action="store_true",
        help="a solution or mutant is graded: solutions/ stays in the learner's view",
    )
    group.addoption("--results", help="JSON-lines file to append key-point results to")
    group.addoption("--call-timeout", type=float, help="seconds per call into the learner's code")
    group.addoption("--import-timeout", type=float, help="seconds to start the learner's process")
    group.addoption("--memory-gib", type=float, help="address-space cap of the learner's process")
    group.addoption(
        "--hide",
        action="append",
        default=[],
        help="a folder the learner's process must not see (e.g. other submissions)",
    )
    group.addoption(
        "--wall",
        choices=["required", "optional"],
        help="whether a learner's process with no file-system wall is refused (default: sandbox.wall_required())",
    )
    group.addoption("--zygote", help="socket of a grader.isolation.zygote that forks the learner's processes")
    group.addoption(
        "--no-shrink",
        action="store_true",
        help="report a failing key point without shrinking its input to the smallest (verdict only)",
    )
    group.addoption(
        "--no-misconceptions",
        action="store_true",
        help="do not replay a failed call against the registered wrong answers",
    )
    group.addoption(
        "--in-process", action="store_true", help="benchmark only: call the module in this process, without isolation"
    )


@pytest.fixture(scope="session")
def exercise(request) -> catalog.Exercise:
    return catalog.get(request.config.getoption("--exercise"))


def _new_learner(config, exercise, **limits):
    opt = config.getoption
    if opt("--in-process"):
        return InProcessLearner(exercise.module, opt("--learner-file"))
    kwargs = dict(
        call_timeout_s=opt("--call-timeout") or exercise.call_timeout_s,
        import_timeout_s=opt("--import-timeout") or exercise.import_timeout_s,
        memory_gib=opt("--memory-gib") or exercise.memory_gib,
        hidden=opt("--hide"),
        zygote=opt("--zygote"),
        inputs=shared_inputs(),
        shown_as=opt("--learner-shown-as"),
        visible_reference=opt("--reference-visible"),
        forbidden=exercise.do_not_call,
        require_wall=None if opt("--wall") is None else opt("--wall") == "required",
    )
    return Learner(exercise.module, opt("--learner-file"), **{**kwargs, **limits})


@pytest.fixture(scope="session")
def learner(request, exercise):
    handle = _new_learner(request.config, exercise)
    request.config._grader_learner = handle
    yield handle
    handle.close()


@pytest.fixture
def learner_factory(request, exercise):
    """More learner processes with other limits, e.g. ``learner_factory(memory_gib=0.5)`` to show
    that the learner's code streams: the cap is set from outside, before its code runs."""
    made = []

    def make(**limits):
        made.append(_new_learner(request.config, exercise, **limits))
        return made[-1]

    yield make
    for handle in made:
        handle.close()


@pytest.fixture
def shared_tmp_path():
    """A temporary folder the learner's process can read, not write (pytest's tmp_path is private
    to root): a folder in this check's inputs folder, which every learner process sees read-only.

    Put generated inputs here (e.g. JSONL files) and pass their paths to the learner.
    """
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="shared-", dir=shared_inputs()))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def figure(request):
    """Attach a chart to this key point's result, shown in grade-report.html.

    ``figure(kind="line", title="training loss", x_label="step", y_label="loss",
    series={"yours": [[0, 4.9], [10, 3.1]]})`` or ``figure(kind="bars", title=...,
    labels=["parameters", "gradients"], series={"estimate": [..], "measured": [..]})``.
    """
    figures: list = []
    request.node._grader_figures = figures

    def add(**spec):
        json.dumps(spec)  # plain data only
        figures.append(spec)

    return add


@pytest.fixture(autouse=True)
def _fresh_key_point(request):
    """A timeout or crash in one key point does not count against the next one."""
    handle = getattr(request.config, "_grader_learner", None)
    if handle is not None:
        handle.reset()
    learner_module.forget_answers()  # "different results for the same input" is this key point's own
    yield


def pytest_configure(config):
    if config.getoption("--no-shrink"):
        settings.load_profile("verdict")


def pytest_unconfigure(config):
    drop_shared_inputs()


def _key_point_id(item) -> str:
    return item.originalname.removeprefix("test_") if hasattr(item, "originalname") else item.name


def _classify(excinfo) -> dict:
    exc = excinfo.value
    # Hypothesis notes the failing input; the learner fixture's repr is noise there.
    notes = "\n".join(
        line
        for note in getattr(exc, "__notes__", []) or []
        for line in note.splitlines()
        if "learner=" not in line and "exercise=" not in line
    )
    if _is_flaky(exc):
        inner = list(getattr(exc, "exceptions", ()) or ())
        seen = next((e for e in inner if _seen_on_the_learners_side(e)), None)
        if seen is not None:  # what was seen once happened: an answer that remembers hides it on replay
            return _classify(_Seen(seen))
        varied = list(learner_module.VARIED_CALLS)
        if varied:  # seen: one call, two answers
            return {
                "status": "failed",
                "message": _(
                    "your code gave different results for the same input: {calls} answered one call two "
                    "different ways (it must be deterministic: seed any randomness) / "
                    "你的代码对同一输入给出了不同结果："
                    "{calls} 对同一次调用给出了两种答案（结果必须确定：给随机性设种子）",
                    calls=", ".join(varied[:3]),
                ),
            }
        if inner and not any(isinstance(e, (LearnerError, KeyPointFailure, AssertionError)) for e in inner):
            # the check's own measurement (a real profile, a timing) varied, not the learner's answer
            error = f"{type(inner[0]).__name__}: {str(inner[0])[:300]}"
            return {
                "status": "check_error",
                "message": _(
                    "the check's own measurement gave different outcomes on one input ({error}): rerun the check",
                    error=error,
                ),
            }
        # The verdict varied while every answer of the learner's was the same: what varied is a
        # measurement (CPU time, wall time) of this machine now. Not the learner's to fix.
        first = inner[0] if inner else exc
        said = getattr(first, "what", None) or str(first)
        return {
            "status": "not_verifiable",
            "message": _(
                "not verifiable on this machine now: one input gave two verdicts while your code answered the "
                "same both times, so what varied is a measurement of this machine's load ({said}); grade "
                "again when it is less busy / 此刻在这台机器上无法验证：同一输入两次判定不同，而你的代码两次答案相同，"
                "变化的是对机器负载的测量；请在机器较空闲时重新评分",
                said=said if isinstance(said, i18n.Text) else said[:300],
            ),
        }
    if isinstance(exc, LearnerError):
        out = {"status": exc.status, "message": exc.args[0]}  # the message as raised (an i18n.Text)
        if getattr(exc, "load_free", False):  # a timeout the load did not decide: a verdict (engine.cache)
            out["load_free"] = True
        if exc.traceback:
            out["traceback"] = exc.traceback
    elif isinstance(exc, KeyPointFailure):
        out = {
            "status": "failed",
            "message": exc.what,
            "expected": _text(exc.expected),
            "got": _text(exc.got),
            "hint": exc.hint,
        }
    elif isinstance(exc, AssertionError):
        out = {"status": "failed", "message": str(exc)}
    else:  # a bug in the check itself: never blame the learner silently
        out = {"status": "check_error", "message": f"{type(exc).__name__}: {exc}"}
    own = getattr(exc, "example", None) if isinstance(exc, KeyPointFailure) else None
    if own is not None:  # the check recorded the input that failed (never the expected value)
        out["example"] = own[-1500:]
    elif notes:
        out["example"] = notes[-1500:]
    return out


def _seen_on_the_learners_side(exc) -> bool:
    """A finding about the learner's code that the machine's load cannot produce: a forbidden call,
    a crash, memory past the cap, a bad output, an exception it raised; a timeout only where the
    load took (nearly) nothing from the call (``load_free``)."""
    if isinstance(exc, learner_module.LearnerTimeout):
        return exc.load_free
    return isinstance(exc, learner_module.LearnerError)


class _Seen:
    """The finding as the excinfo ``_classify`` reads (``.value``)."""

    def __init__(self, value):
        self.value = value


def _is_flaky(exc) -> bool:
    from hypothesis.errors import Flaky

    return isinstance(exc, Flaky)


def pytest_collection_modifyitems(session, config, items):
    """Draw inputs from a seed tied to the learner's code and the key point: the same code gets
    the same verdict on every run, and a table of the inputs seen once is useless next time."""
    from hypothesis import seed

    path = config.getoption("--learner-file")
    code = _learner_code(Path(path)) if path else b""
    for item in items:
        fn = getattr(item, "obj", None)
        if getattr(fn, "is_hypothesis_test", False):
            seed(draw_seed(code, item.nodeid))(fn)


def draw_seed(code: bytes, nodeid: str) -> int:
    """The seed of a key point's inputs. ``make draws`` sets a salt (DRAW_SALT_ENV) to grade the
    mutants on other draws: a mutant caught only by a lucky draw is a check that asks too little."""
    import hashlib

    salt = os.environ.get(DRAW_SALT_ENV, "")
    salted = code + nodeid.encode() + (b"\0salt=" + salt.encode() if salt else b"")
    return int.from_bytes(hashlib.sha256(salted).digest()[:8], "big")


def _learner_code(module_file: Path) -> bytes:
    """Every learner file the verdict depends on (the fingerprint's set, grader.engine.cache):
    a lookup table in a helper module must see new draws when any of them changes."""
    import hashlib

    from grader.engine.cache import learner_files

    h = hashlib.sha256()
    try:
        paths = learner_files(module_file)
    except (OSError, RecursionError, ValueError):
        paths = [module_file]
    for p in sorted(set(paths), key=lambda p: p.name):
        h.update(p.name.encode() + b"\0")
        try:
            h.update(files.read_regular(p) + b"\0")
        except OSError:
            h.update(b"<unreadable>\0")
    return h.digest()


def _text(value) -> str | None:
    return None if value is None else (value if isinstance(value, str) else repr(value))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    path = item.config.getoption("--results")
    if not path or not (report.when == "call" or report.failed or report.skipped):
        return
    if report.when == "teardown" and not report.failed:
        return
    if report.passed:
        record = {"status": "passed"}
    elif report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        raised = getattr(call.excinfo.value, "msg", None) if call.excinfo else None  # skip(_("...")): the message
        said = raised if isinstance(raised, i18n.Text) else reason.removeprefix("Skipped: ")
        record = {"status": "not_verifiable", "message": said}
    else:
        record = (
            _classify(call.excinfo)
            if call.excinfo
            else {"status": "check_error", "message": str(report.longrepr)[-1500:]}
        )
    if not report.passed and not report.skipped:  # the input that failed, and the mistake it matches
        opt = item.config.getoption
        record = misconceptions.annotate(
            record,
            catalog.get(opt("--exercise")),
            _key_point_id(item),
            getattr(item.config, "_grader_learner", None),
            opt("--learner-file"),
            name_mistakes=not opt("--no-misconceptions"),
        )
    record = {k: i18n.data(v) for k, v in record.items()}  # sentences as msgid and fields: said where shown
    record.update(key_point=_key_point_id(item), duration_s=round(report.duration, 3), at=time.time())
    if learner_module.applied_level():  # as measured in the learner processes' own setup
        record["isolation"] = learner_module.applied_level()
    if getattr(item, "_grader_figures", None):
        record["figures"] = item._grader_figures
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "a") as f:
        f.write(json.dumps(record) + "\n")


def needs_cuda(reason: str | None = None):
    """Mark a key point that only a GPU can verify; reported as not verifiable elsewhere."""
    import torch

    reason = reason or _("needs a CUDA GPU: not verifiable on this machine")
    return pytest.mark.skipif(not torch.cuda.is_available(), reason=reason)
