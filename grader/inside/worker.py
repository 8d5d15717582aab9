"""LEARNER-VISIBLE, the learner's process: it imports the learner's module and answers calls.

Started by :class:`grader.isolation.learner.Learner` (exec'd, or forked by
:mod:`grader.isolation.zygote`); a check imports only its constants. Requests and answers
are :mod:`grader.inside.codec` frames on two inherited pipe fds, so whatever the learner's code
prints goes to a log file instead of the channel. Before each answer (the import's too) the
watch's report goes on a third pipe: what its log holds, ending with the proof the check asked
for (:func:`grader.inside.watch.proof` of the request's nonce), written through that log after
the learner's code ran. A report that is missing, late, truncated or without its proof is, on
the check's side, a key point the grader could not observe: never "nothing called".

    python -m grader.inside.worker <request fd> <answer fd> <report fd> <module name> <module file>

The module file is a copy in the sandbox; the check side puts the learner's path back into
messages (the original path is not given here: other folders are none of its business).
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import os
import sys
import traceback
from pathlib import Path

from grader.inside import VISIBLE, codec, fdshare, watch as _watch

DRIVER_PREFIX = "grader.drivers."
SYSCALLS_ENV = "GRADER_SYSCALLS"  # hex of a BPF program the check built (sandbox.one_process_filter)
MAX_REPORTED = 32  # names per report: far below a pipe's buffer, which the check drains after the answer


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


def load_syscall_filter() -> None:
    """The seccomp filter the check passed in the environment, before the learner's code runs:
    the kernel keeps it for this process and every child, whatever that code does afterwards.
    The check reads ``Seccomp_filters`` in /proc to see it loaded."""
    program = bytes.fromhex(os.environ.pop(SYSCALLS_ENV, ""))
    if not program:
        return

    class Program(ctypes.Structure):  # struct sock_fprog
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    code = ctypes.create_string_buffer(program, len(program))
    fprog = Program(len(program) // 8, ctypes.addressof(code))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        os._exit(71)  # never run the learner with less isolation than was promised


def report(stream, watch, nonce: str) -> None:
    """The watch's report for what just ran: its log, through which the proof of ``nonce`` is
    noted last (a log the learner's code switched off loses the proof with the rest)."""
    watch.note(_watch.proof(nonce))
    log = watch.take()
    codec.write(stream, {"log": [*log[:-1][: MAX_REPORTED - 1], *log[-1:]]})


def apply_locale() -> None:
    """The locale of this process's environment, as an interpreter started in it sets it (a child
    forked from the zygote would keep the zygote's)."""
    import locale

    try:
        locale.setlocale(locale.LC_CTYPE, "")
    except locale.Error:  # a locale this machine lacks: keep the one there is
        pass


def main(argv: list[str]) -> int:
    req_fd, ans_fd, rep_fd, module_name, module_file = int(argv[0]), int(argv[1]), int(argv[2]), argv[3], argv[4]
    apply_locale()
    requests = os.fdopen(req_fd, "rb")
    answers = os.fdopen(ans_fd, "wb")
    reports = os.fdopen(rep_fd, "wb")
    forget_grader()
    # What the exercise forbids, before the module can import it; the module's folder says which
    # code is the learner's, and what _call calls directly is the learner's doing.
    watch = _watch.install_from_env(module_file, module_name)
    _watch.boundary(_call)
    nonce = os.environ.pop(_watch.NONCE_ENV, "")
    load_syscall_filter()
    fdshare.install()  # no unix socket of its own: multiprocessing hands descriptors over by pid
    try:
        with watch.during("import"):
            module = _load(module_name, module_file)
        hello = {"ok": True}
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
    report(reports, watch, nonce)  # at import: every key point fails the same way on a finding
    codec.write(answers, hello)
    while True:
        try:
            request = codec.read(requests)
        except EOFError:
            return 0
        if module is None:
            report(reports, watch, str(request.get("nonce", "")))
            codec.write(answers, hello)
            continue
        try:
            with watch.during("answer"):
                answer = {"ok": True, **_call(module, request, watch)}
            frame = codec.dumps(answer)
        except BaseException as exc:  # noqa: BLE001 - whether it returned, raised or is not plain data
            if isinstance(exc, KeyboardInterrupt):
                raise
            frame = codec.dumps({"ok": False, "error": _describe(exc, module_file)})
        report(reports, watch, str(request.get("nonce", "")))
        answers.write(frame)
        answers.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
