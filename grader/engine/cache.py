"""Incremental grading: reuse an exercise's result while nothing it depends on has changed.

An exercise's fingerprint hashes everything that can change its verdict, and nothing else:

* the learner's module, the modules of the target folder it imports (transitively) and the
  folder's other non-exercise modules (one could be imported by a computed name);
* its check file, the conftest.py files pytest loads with it, and every grader module they
  import, transitively (support, truth, another exercise's checks, ...), found by reading import
  statements, not by running them;
  its solution and its catalog entry;
* what every exercise shares: the modules that run checks and learners (MACHINERY) with what
  they import, the code of the learner's process, all drivers and given code (SHARED: run
  there, run by name, or imported by learners), the versions of the libraries that compute
  ground truth, and Python's.

So an edit of a truth module re-grades exactly the exercises whose checks import it; an edit
of the reports or the CLI re-grades nothing.

The cache is one JSON file per target folder under ``.grader-cache/``: the latest result of each
exercise with the fingerprint it was graded under, rewritten after every exercise, so an interrupted
run keeps what finished. Results that may depend on the machine's load (timeouts, out-of-memory,
grader bugs) are recorded, as the latest result, but never reused instead of grading again, except a
call that ran to its limit while the load took nearly nothing from its learner (a hang:
``LearnerTimeout.load_free``, the time its threads waited for a CPU; the same code times out again,
so it stands until the code changes or ``--fresh``) and a key point "not verifiable" for want of a
capability (a GPU-only key point on a machine without CUDA): the machine's capabilities are part of
every fingerprint, so such a result stands until they change. A key point not verifiable because of
the load is graded again alone, the rest of the exercise reused (:func:`regrade_only`). A result
graded behind another wall than the one this run applies (its learners measured another isolation
level) is graded again. Each entry carries an HMAC under a key only the grader's user can read
(``.grader-cache/.key``, mode 0600): an entry that fails it is graded again, never trusted.
"""

from __future__ import annotations

import ast
import functools
import glob
import hashlib
import json
import os
import sys
import sysconfig
import threading
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path

from grader.course.catalog import BY_MODULE, ROOT, Exercise
from grader.engine.results import ExerciseResult, KeyPointResult
from grader.isolation import files, sandbox

# A salt for the hypothesis draws (make draws; grader.engine.plugin.draw_seed): unset when grading.
DRAW_SALT_ENV = "GRADER_DRAW_SALT"
CACHE_DIR = Path(os.environ.get("GRADER_CACHE_DIR") or ROOT / ".grader-cache")  # hidden from learners
SOURCE = ROOT  # the project whose grader modules are read (a test points it at a copy)
# Every verdict depends on these and what they import: the modules that run the checks and start
# the learners' processes, what runs in those (grader/inside), every driver (checks run them by
# name, not by import) and the given code.
MACHINERY = ("grader/engine/runner.py", "grader/engine/plugin.py", "grader/isolation/zygote.py")
SHARED = ("grader/inside", "grader/drivers", "grader/given")
LIBRARIES = ("torch", "numpy", "transformers", "peft", "trl", "hypothesis", "pytest", "safetensors")
_UNSTABLE = {"timeout", "oom", "check_error", "crashed"}


def _unstable(k: KeyPointResult) -> bool:
    """A key point the machine's load may have decided: not a timeout whose learner the load
    left alone (its call ran to the catalog's limit: the same code times out again)."""
    return k.status in _UNSTABLE and not (k.status == "timeout" and k.load_free)


def has_cuda() -> bool:
    """Whether a CUDA device can be used here, decided without importing torch (a re-grade must
    start in well under a second): NVIDIA device nodes present and a torch built for CUDA."""
    try:
        cpu_build = metadata.version("torch").endswith("+cpu")
    except metadata.PackageNotFoundError:
        return False
    return bool(glob.glob("/dev/nvidia[0-9]*")) and not cpu_build


def capabilities() -> str:
    """What this machine can verify at all, as opposed to what its load allows this time: part of
    every fingerprint, so a result "not verifiable" for want of one is re-graded when it changes."""
    devices = sorted(glob.glob("/dev/nvidia[0-9]*"))
    return (
        f"cuda={has_cuda()} devices={','.join(devices) or 'none'} "
        f"gil_disabled={sysconfig.get_config_var('Py_GIL_DISABLED')}"
    )


def _environment() -> str:
    versions = []
    for name in LIBRARIES:
        try:
            versions.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    # Another draw (make draws) is another verdict: never mixed with the usual draw's.
    salt = os.environ.get(DRAW_SALT_ENV, "")
    return f"python {sys.version_info[:3]} {capabilities()} draw_salt={salt!r} " + " ".join(versions)


def _imports(path: Path) -> tuple[tuple[str, int], ...]:
    """(name, relative level) of everything ``path`` imports, anywhere in it (a function's
    import counts: it runs when that function does)."""
    return _imports_in(_read(path))


def _read(path: Path) -> bytes:
    """A file's bytes without following a link or blocking on a FIFO: learner folders hold
    whatever the learner put there. What cannot be read is hashed as a marker (and then graded,
    where the runner refuses it with a message)."""
    try:
        return files.read_regular(path)
    except OSError as exc:
        return f"<unreadable: {type(exc).__name__}>".encode()


@functools.cache  # by content: each run reads the same support modules 33 times
def _imports_in(source: bytes) -> tuple[tuple[str, int], ...]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
        return ()  # a file Python cannot parse is graded (and reported), not cached around
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(a.name, 0) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            names += [(base, node.level)] + [(f"{base}.{a.name}".lstrip("."), node.level) for a in node.names]
    return tuple(names)


Resolver = Callable[[Path, str, int], Iterable[Path]]


def _closure(start: Iterable[Path], resolve: Resolver) -> list[Path]:
    """``start`` and the files they import, transitively, as ``resolve`` finds them; sorted."""
    seen: set[Path] = set()
    todo = list(start)
    while todo:
        path = todo.pop()
        if path in seen or not path.exists():
            continue
        seen.add(path)
        for name, level in _imports(path):
            todo += resolve(path, name, level)
    return sorted(seen)


def _in_folder(folder: Path) -> Resolver:
    """Learner modules: a flat folder, imported by their top-level name."""

    def resolve(path: Path, name: str, level: int) -> list[Path]:
        parts = name.split(".")
        return [folder / f"{p}.py" for p in {parts[0], parts[-1]} if p and not level]

    return resolve


def _in_grader(path: Path, name: str, level: int) -> list[Path]:
    """Grader modules that importing ``name`` from ``path`` runs: each package's __init__ too."""
    if level:  # from . import x: relative to the package of ``path``
        try:
            package = path.relative_to(SOURCE).with_suffix("").parts[:-1]
        except ValueError:
            return []
        name = ".".join([*package[: len(package) - level + 1], name]).rstrip(".")
    parts = name.split(".")
    if parts[0] != "grader":
        return []
    files = []
    for i in range(1, len(parts) + 1):
        base = SOURCE.joinpath(*parts[:i])
        files += [f for f in (base / "__init__.py", base.with_suffix(".py")) if f.exists()]
    return files


def _digest(h, paths: Iterable[Path]) -> None:
    for path in paths:
        h.update(path.name.encode() + b"\0")
        h.update(_read(path) if os.path.lexists(path) else b"<missing>")


def shared_files() -> list[Path]:
    """What every exercise's verdict depends on: the machinery, drivers and given code."""
    start = [SOURCE / p for p in MACHINERY] + [p for d in SHARED for p in (SOURCE / d).rglob("*.py")]
    return _closure(start, _in_grader)


def check_files(ex: Exercise) -> list[Path]:
    """The exercise's check file, the conftest.py files pytest loads with it (in its folder and
    above, within the project: fixtures no import names), and the grader modules they import."""
    check = SOURCE / ex.check_file.relative_to(ROOT)
    conftests = [folder / "conftest.py" for folder in check.parents if folder.is_relative_to(SOURCE)]
    return _closure([check, *conftests], _in_grader)


def learner_files(module_file: Path) -> list[Path]:
    """The learner's module, the folder's modules it imports, and the folder's helpers (every
    non-exercise module: one could be imported by a computed name); other exercises' edits do not count."""
    exercise_files = {f"{e.module}.py" for e in BY_MODULE.values()}
    helpers = [p for p in module_file.parent.glob("*.py") if p.name not in exercise_files]
    return _closure([module_file, *helpers], _in_folder(module_file.parent))


class ResultCache:
    """``name``: a store of its own under the cache folder instead of the target's (the project's
    test harness keeps its verdicts in one, several files per exercise, see ``slot``)."""

    def __init__(self, target: Path, name: str | None = None):
        key = name or hashlib.sha256(str(target.resolve()).encode()).hexdigest()[:16]
        self.path = CACHE_DIR / f"{key}.json"
        self._lock = threading.Lock()
        shared = hashlib.sha256(_environment().encode())
        _digest(shared, shared_files())
        self._shared = shared.digest()
        try:
            self._key: bytes | None = files.secret_key(files.own_folder(CACHE_DIR))
        except OSError:
            self._key = None  # a cache folder that is not the grader's own: nothing is kept or trusted
        try:
            self._entries = json.loads(files.read_regular(self.path, 256 << 20))
        except (OSError, ValueError):
            self._entries = {}
        if not isinstance(self._entries, dict):
            self._entries = {}

    def fingerprint(self, ex: Exercise, module_file: Path) -> str:
        h = hashlib.sha256(self._shared + repr(ex).encode())
        _digest(h, [*learner_files(module_file), *check_files(ex), ROOT / "solutions" / f"{ex.module}.py"])
        return h.hexdigest()

    def get(self, ex: Exercise, fingerprint: str, slot: str | None = None) -> ExerciseResult | None:
        """The latest result recorded under this fingerprint, if any (see :func:`reusable`).
        ``slot``: where it is kept, the exercise's id unless told (one entry per slot)."""
        entry = self._entries.get(slot or ex.id)
        if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint or not self._signed(ex, entry):
            return None
        try:
            result = ExerciseResult.from_dict(entry["result"])
        except (KeyError, TypeError):
            return None
        if result.isolation and result.isolation != sandbox.isolation_level():
            return None  # graded behind another wall than this run's: what it saw may differ
        return result

    def put(self, ex: Exercise, fingerprint: str, result: ExerciseResult, slot: str | None = None) -> None:
        with self._lock:
            if self._key is None:
                return
            entry = {"fingerprint": fingerprint, "result": result.to_dict()}
            self._entries[slot or ex.id] = {**entry, "mac": _entry_mac(self._key, ex, entry)}
            files.replace_file(self.path, json.dumps(self._entries).encode(), 0o600)

    def _signed(self, ex: Exercise, entry: dict) -> bool:
        return self._key is not None and files.mac_ok(self._key, _entry_payload(ex, entry), entry.get("mac"))


def _entry_payload(ex: Exercise, entry: dict) -> bytes:
    return json.dumps([ex.id, entry.get("fingerprint"), entry.get("result")], sort_keys=True).encode()


def _entry_mac(key: bytes, ex: Exercise, entry: dict) -> str:
    """What authenticates a cache entry: its exercise, fingerprint and result under the key."""
    return files.mac(key, _entry_payload(ex, entry))


def for_want_of_capability(ex: Exercise, kp: KeyPointResult) -> bool:
    """A key point not verifiable because this machine lacks what it needs (a GPU-only key point
    without CUDA), not because of the load: it stands, the capabilities being in the fingerprint."""
    return (
        kp.status == "not_verifiable"
        and kp.key_point in {k.id for k in ex.key_points if k.needs_gpu}
        and not has_cuda()
    )


def reusable(result: ExerciseResult, ex: Exercise | None = None) -> bool:
    """A result that stands for its fingerprint: not one the machine's load may have decided.
    With ``ex``, a key point not verifiable for want of a capability stands too."""
    if result.status != "graded" or any(_unstable(k) for k in result.key_points):
        return False
    return not any(
        k.status == "not_verifiable" and not (ex and for_want_of_capability(ex, k)) for k in result.key_points
    )


def regrade_only(result: ExerciseResult, ex: Exercise) -> list[str] | None:
    """The key points to grade again in a result recorded for the current fingerprint: none
    when it stands, only those "not verifiable" because of the load when the rest stands, and
    None when the whole exercise must be graded again (a timeout, a crash: the run itself)."""
    if result.status != "graded" or any(_unstable(k) for k in result.key_points):
        return None
    return [
        k.key_point for k in result.key_points if k.status == "not_verifiable" and not for_want_of_capability(ex, k)
    ]
