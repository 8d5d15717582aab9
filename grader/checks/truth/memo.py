"""Memoised ground truth: an expensive, deterministic check-side computation (SFT training of the
real SmolLM2 in P4 and X5, the quiz's measured Llama-3-8B decoder layer) kept by a hash of its exact inputs, so a
grading whose inputs equal an
earlier one's (a mutant or variant whose data path is the solution's, a learner's re-grade, X5's
run and P4's with the same batches, every quiz process asking A7/B1's truth) reuses the result instead of training
again.

The key hashes everything the result depends on: the inputs as given (tensors by dtype, shape and
bytes), the model's files (the model cache's manifest digests), the library and Python versions
with the machine's capabilities (grader.engine.cache), and the source of every module that
computes it (grader/checks/truth, this file among them, and grader/given). A changed input is a new key.

Where: ``<grader cache>/truth/`` (``grader.engine.cache.CACHE_DIR``, hidden from learners by the
sandbox, like this module: grader/checks is not in their view), a folder only the grader's user
can write, one JSON file per key carrying an HMAC under the cache's key (``.key``, 0600): an entry
that fails it, or that cannot be read, is computed again, never trusted. A second process asking
for the same key while the first computes waits for it (a lock file, bounded), so two parallel
gradings do not train the same run twice. ``GRADER_TRUTH_CACHE=0`` turns it off (always compute).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from grader.isolation import files

LOCK_WAIT_S = 300.0  # at most this long behind another process computing the same key; then compute
_GRADER = Path(__file__).resolve().parents[2]
SOURCES = ("checks/truth", "given")  # what computes a memoised result (this file included)
VALUE_CAP = 8 << 20  # bytes of one entry read back


def enabled() -> bool:
    return os.environ.get("GRADER_TRUTH_CACHE") != "0"


def folder() -> Path:
    from grader.engine import cache

    return cache.CACHE_DIR / "truth"


def _feed(h, obj) -> None:
    """Hash ``obj`` exactly and unambiguously: a tensor by dtype, shape and bytes, containers by
    type and items in order (a dict sorted by key), scalars by type and repr."""
    import torch

    if isinstance(obj, torch.Tensor):
        t = obj.detach().cpu().contiguous()
        h.update(f"tensor {t.dtype} {tuple(t.shape)} ".encode())
        h.update(t.view(torch.uint8).numpy().tobytes() if t.numel() else b"")
    elif isinstance(obj, dict):
        h.update(f"dict {len(obj)} ".encode())
        for k in sorted(obj, key=repr):
            _feed(h, k)
            _feed(h, obj[k])
    elif isinstance(obj, (list, tuple)):
        h.update(f"{type(obj).__name__} {len(obj)} ".encode())
        for x in obj:
            _feed(h, x)
    elif obj is None or isinstance(obj, (bool, int, float, str, bytes)):
        h.update(f"{type(obj).__name__} {obj!r} ".encode())
    else:
        raise TypeError(f"memo: cannot hash a {type(obj).__name__} exactly")


def _sources(extra: tuple[str, ...] = ()) -> list[Path]:
    out = []
    for rel in (*SOURCES, *extra):
        p = _GRADER / rel
        out += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return out


def key(kind: str, inputs, sources: tuple[str, ...] = ()) -> str:
    """``sources``: more files or folders (relative to grader/) whose code computes the result."""
    from grader.engine import cache

    h = hashlib.sha256(f"{kind}\n{cache._environment()}\n".encode())
    for p in _sources(sources):
        h.update(p.relative_to(_GRADER).as_posix().encode() + b"\0" + files.read_regular(p) + b"\0")
    _feed(h, inputs)
    return h.hexdigest()


def _payload(kind: str, k: str, value) -> bytes:
    return json.dumps([kind, k, value], sort_keys=True).encode()


def _load(path: Path, secret: bytes, kind: str, k: str):
    try:
        entry = json.loads(files.read_regular(path, VALUE_CAP))
        value = entry["value"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return value if files.mac_ok(secret, _payload(kind, k, value), entry.get("mac")) else None


def memoised(kind: str, inputs, compute: Callable[[], object], sources: tuple[str, ...] = ()):
    """``compute()`` (a JSON-able result), or the result an earlier call with the same ``kind``
    and ``inputs`` (and code: ``sources``, see :func:`key`) stored (see the module docstring)."""
    if not enabled():
        return compute()
    try:
        where = files.own_folder(folder())
        secret = files.secret_key(files.own_folder(folder().parent))
    except OSError:
        return compute()  # not the grader's own folder: nothing kept, nothing trusted
    k = key(kind, inputs, sources)
    path = where / f"{k}.json"
    hit = _load(path, secret, kind, k)
    if hit is not None:
        return hit
    lock_fd = os.open(where / f"{k}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:  # another process computing it: wait for its result (the OS drops a dead one's lock)
            try:
                fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        hit = _load(path, secret, kind, k)
        if hit is not None:
            return hit
        value = compute()
        # stored as JSON reads it back, so a hit and a fresh computation hand the check the same value
        value = json.loads(json.dumps(value))
        files.replace_file(
            path, json.dumps({"value": value, "mac": files.mac(secret, _payload(kind, k, value))}).encode(), 0o600
        )
        return value
    finally:
        os.close(lock_fd)  # releases the lock
