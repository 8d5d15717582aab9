"""Incremental grading: reuse an exercise's result while nothing it depends on has changed.

An exercise's fingerprint hashes everything that can change its verdict:

* the learner's module and the sibling modules of the target folder it imports (transitively);
* its check file, its solution, the grader package's own source and data, its catalog entry;
* the versions of the libraries that compute ground truth, and the Python version.

The cache is one JSON file per target folder under ``.grader-cache/``, rewritten after every
exercise, so an interrupted run keeps what finished and the next run continues from there.
Results that may depend on the machine's load (timeouts, out-of-memory, grader bugs) are
never reused. Each entry carries an HMAC under a key only the grader's user can read
(``.grader-cache/.key``, mode 0600): an entry that fails it is graded again, never trusted.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import threading
from importlib import metadata
from pathlib import Path

from grader.course.catalog import BY_MODULE, ROOT, Exercise
from grader.engine.results import ExerciseResult
from grader.isolation import files

CACHE_DIR = Path(os.environ.get("GRADER_CACHE_DIR") or ROOT / ".grader-cache")  # hidden from learners
LIBRARIES = ("torch", "numpy", "transformers", "peft", "trl", "hypothesis", "pytest", "safetensors")
_UNSTABLE = {"timeout", "oom", "check_error", "crashed"}


def _environment() -> str:
    versions = []
    for name in LIBRARIES:
        try:
            versions.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    return f"python {sys.version_info[:3]} " + " ".join(versions)


def _grader_source() -> bytes:
    h = hashlib.sha256()
    for path in sorted((ROOT / "grader").rglob("*")):
        if path.is_file() and path.suffix in (".py", ".json", ".txt", ".jsonl") and "checks" not in path.parts:
            h.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    return h.digest()


def local_imports(module_file: Path) -> list[Path]:
    """Modules of ``module_file``'s folder that it imports, transitively (itself first)."""
    folder, seen, todo = module_file.parent, [], [module_file]
    while todo:
        path = todo.pop()
        if path in seen or not path.exists():
            continue
        seen.append(path)
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue  # a syntax error is graded, not cached around
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                for part in (name.split(".")[-1], name.split(".")[0]):
                    candidate = folder / f"{part}.py"
                    if candidate.exists():
                        todo.append(candidate)
    return seen


class ResultCache:
    def __init__(self, target: Path):
        key = hashlib.sha256(str(target.resolve()).encode()).hexdigest()[:16]
        self.path = CACHE_DIR / f"{key}.json"
        self._lock = threading.Lock()
        self._base = hashlib.sha256(_environment().encode() + _grader_source()).digest()
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
        # Every non-exercise module of the folder counts (it could be imported by a computed
        # name), and the exercise modules the file imports; other exercises' edits do not.
        exercise_files = {f"{e.module}.py" for e in BY_MODULE.values()}
        helpers = sorted(p for p in module_file.parent.glob("*.py") if p.name not in exercise_files)
        paths = dict.fromkeys([*local_imports(module_file), *helpers, ex.check_file,
                               ROOT / "solutions" / f"{ex.module}.py"])
        h = hashlib.sha256(self._base + repr(ex).encode())
        for path in paths:
            h.update(str(path.name).encode())
            h.update(path.read_bytes() if path.exists() else b"<missing>")
        return h.hexdigest()

    def get(self, ex: Exercise, fingerprint: str) -> ExerciseResult | None:
        entry = self._entries.get(ex.id)
        if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint or not self._signed(ex, entry):
            return None
        try:
            return ExerciseResult.from_dict(entry["result"])
        except (KeyError, TypeError):
            return None

    def put(self, ex: Exercise, fingerprint: str, result: ExerciseResult) -> None:
        if result.status != "graded" or any(k.status in _UNSTABLE for k in result.key_points):
            return
        with self._lock:
            if self._key is None:
                return
            entry = {"fingerprint": fingerprint, "result": result.to_dict()}
            self._entries[ex.id] = {**entry, "mac": _entry_mac(self._key, ex, entry)}
            files.replace_file(self.path, json.dumps(self._entries).encode(), 0o600)

    def _signed(self, ex: Exercise, entry: dict) -> bool:
        return self._key is not None and files.mac_ok(self._key, _entry_payload(ex, entry), entry.get("mac"))


def _entry_payload(ex: Exercise, entry: dict) -> bytes:
    return json.dumps([ex.id, entry.get("fingerprint"), entry.get("result")], sort_keys=True).encode()


def _entry_mac(key: bytes, ex: Exercise, entry: dict) -> str:
    """What authenticates a cache entry: its exercise, fingerprint and result under the key."""
    return files.mac(key, _entry_payload(ex, entry))
