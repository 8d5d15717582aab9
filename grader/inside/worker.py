"""LEARNER-VISIBLE, the learner's process: it imports the learner's module and answers calls.

Started by :class:`grader.isolation.learner.Learner` (exec'd, or forked by
:mod:`grader.isolation.zygote`); never imported by a check. Requests and answers
are :mod:`grader.inside.codec` frames on two inherited pipe fds, so whatever the learner's code
prints goes to a log file instead of the channel.

    python -m grader.inside.worker <request fd> <answer fd> <module name> <module file>

The module file is a copy in the sandbox; the check side puts the learner's path back into
messages (the original path is not given here: other folders are none of its business).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from pathlib import Path

from grader.inside import VISIBLE, codec, watch as _watch

DRIVER_PREFIX = "grader.drivers."


def forget_grader() -> None:
    """Drop from ``sys.modules`` every grader module outside :data:`VISIBLE` (and ``solutions``):
    a process forked from the zygote inherits some (the sandbox, the preloader), and a module
    found there imports without its file. The learner's ``import grader.engine`` then fails as
    it does in a fresh interpreter, whose view lacks the file."""

    def hidden(name: str) -> bool:
        if name.startswith("grader."):
            return ".".join(name.split(".")[:2]) not in VISIBLE  # its package: grader.<package>
        return name == "solutions" or name.startswith("solutions.")

    for name in [n for n in sys.modules if hidden(n)]:
        parent, _, child = name.rpartition(".")
        del sys.modules[name]
        if parent in sys.modules and getattr(sys.modules[parent], child, None) is not None:
            delattr(sys.modules[parent], child)  # ``grader.engine`` as an attribute of ``grader``
    importlib.invalidate_caches()


def _describe(exc: BaseException, module_file: str) -> dict:
    """An exception as plain data; the traceback keeps the learner's frames only."""
    if isinstance(exc, SyntaxError):
        where = f"{exc.filename}, line {exc.lineno}"
        return {
            "kind": "import",
            "type": type(exc).__name__,
            "message": f"{exc.msg} ({where})",
            "traceback": "".join(traceback.format_exception_only(type(exc), exc)),
        }
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == module_file]
    tb = "".join(traceback.format_list(frames[-3:]))
    message = str(exc)
    kind = "raised"
    if isinstance(exc, NotImplementedError):
        kind = "not_implemented"
    elif isinstance(exc, MemoryError) or "can't allocate memory" in message or "Cannot allocate memory" in message:
        kind = "oom"
    elif isinstance(exc, codec.CodecError):
        kind = "bad_output"
    elif isinstance(exc, SystemExit):
        kind = "exit"
        message = f"called sys.exit({exc.code!r})"
    return {"kind": kind, "type": type(exc).__name__, "message": message[:2000], "traceback": tb}


def _load(module_name: str, module_file: str):
    path = Path(module_file)
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def _call(module, request: dict, watch=None):
    op = request.get("op")
    args, kwargs = request.get("args", []), request.get("kwargs", {})
    if op == "call":
        name = request["name"]
        fn = getattr(module, name, None)
        if fn is None:
            raise AttributeError(f"{module.__name__} has no function {name!r}")
        if not callable(fn):
            return {"value": fn}  # a module-level constant
        if watch is not None:
            watch.inspect_answer(fn)
        return {"value": fn(*args, **kwargs)}
    if op == "drive":  # trusted code of the grader that needs live objects (models, loaders)
        target = request["driver"]
        mod_name, _, fn_name = target.partition(":")
        if not mod_name.startswith(DRIVER_PREFIX):
            raise ValueError(f"not a driver: {target}")
        fn = getattr(importlib.import_module(mod_name), fn_name)
        return {"value": fn(module, *args, **kwargs)}
    raise ValueError(f"unknown op {op!r}")


def apply_locale() -> None:
    """The locale of this process's environment, as an interpreter started in it sets it (a child
    forked from the zygote would keep the zygote's)."""
    import locale

    try:
        locale.setlocale(locale.LC_CTYPE, "")
    except locale.Error:  # a locale this machine lacks: keep the one there is
        pass


def main(argv: list[str]) -> int:
    req_fd, ans_fd, module_name, module_file = int(argv[0]), int(argv[1]), argv[2], argv[3]
    apply_locale()
    requests = os.fdopen(req_fd, "rb")
    answers = os.fdopen(ans_fd, "wb")
    forget_grader()
    # What the exercise forbids, before the module can import it; the module's folder says which
    # code is the learner's, and what _call calls directly is the learner's doing.
    watch = _watch.install_from_env(module_file, module_name)
    _watch.boundary(_call)
    try:
        with watch.during("import"):
            module = _load(module_name, module_file)
        hello = {"ok": True}
        hits = watch.take()
        if hits:  # at import: every key point fails the same way
            hello["forbidden"] = hits
    except BaseException as exc:  # noqa: BLE001 - SystemExit at import is a learner error too
        module = None
        hello = {
            "ok": False,
            "error": {
                **_describe(exc, module_file),
                "kind": (
                    "not_implemented"
                    if isinstance(exc, NotImplementedError)
                    else "exit"
                    if isinstance(exc, SystemExit)
                    else "import"
                ),
            },
        }
    codec.write(answers, hello)
    while True:
        try:
            request = codec.read(requests)
        except EOFError:
            return 0
        if module is None:
            codec.write(answers, hello)
            continue
        try:
            with watch.during("answer"):
                answer = {"ok": True, **_call(module, request, watch)}
            frame = None
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt):
                raise
            answer, frame = None, codec.dumps({"ok": False, "error": _describe(exc, module_file)})
        hits = watch.take()
        if hits:  # whether it returned or raised: the check side fails the key point
            frame = codec.dumps({"ok": True, "value": None, "forbidden": hits})
        elif frame is None:
            try:
                frame = codec.dumps(answer)
            except BaseException as exc:  # noqa: BLE001 - not plain data
                if isinstance(exc, KeyboardInterrupt):
                    raise
                frame = codec.dumps({"ok": False, "error": _describe(exc, module_file)})
        answers.write(frame)
        answers.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
