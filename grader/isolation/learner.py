"""The check's handle on the learner's code, which runs in another process.

A check never imports the learner's module. It calls ``learner.broadcast_shape((8, 1), (3,))``
and gets back plain data decoded by :mod:`grader.inside.codec`; expected values are computed in the
check's own process, which the learner's code never touched. Every way the learner's code can
go wrong becomes one exception type, so the report can say exactly what happened:

==================  ===========================================================
LearnerImportError  the module does not import (syntax error: file and line)
NotImplementedYet   the stub still raises NotImplementedError
LearnerRaised       the function raised (``.type_name``, ``.message``)
LearnerTimeout      one call ran past its time limit ("timed out after 20 s")
LearnerOutOfMemory  the process hit its memory cap ("exceeded 4 GiB")
LearnerOutOfDisk    its work folder on the host disk outgrew the work tmpfs's size (a LearnerOutOfMemory)
LearnerCrashed      the process died (os._exit, a signal, a segfault)
LearnerBadOutput    the result is not plain data or is too large
LearnerForbidden    it calls what the exercise forbids (:mod:`grader.course.do_not_call`)
LearnerUnobserved   the watch's report did not come as the worker sends it (a LearnerForbidden)
==================  ===========================================================

The last call of the current key point (request, answer, seconds) is kept as ``last_call``: the
report shows its input as the failing input, and :mod:`grader.engine.misconceptions` replays it
against the exercise's known wrong answers.
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import json
import os
import re
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from grader.i18n import N_, Message, _
from grader.inside import codec, watch, worker
from grader.isolation import files, procfs, sandbox as _sandbox, scan, zygote
from grader.isolation.sandbox import ROOT, Sandbox, reference_visible


def _said(rule: dict) -> Message:
    """What the stub says about the forbidden call, in the reader's language where the course's
    catalog has it (grader/course/do_not_call.py)."""
    says = rule.get("says", "").rstrip(".")
    return Message(says) if says else Message(N_("do not call it"))


class LearnerError(Exception):
    """Base class: something about the learner's code, not about the check, went wrong."""

    status = "error"

    def __init__(self, message: str, traceback: str = ""):
        super().__init__(message)
        self.traceback = traceback


class LearnerImportError(LearnerError):
    status = "import_error"


class NotImplementedYet(LearnerError):
    status = "not_implemented"


# What a given module raises when the learner's code misuses it (grader/given/said.py: the learner's
# process has no catalog, so it raises the English template filled): read back in the reader's language.
GIVEN_SAYS = (N_("sequence of {n} tokens is longer than block_size {block_size}"),)


def _given_said(message: str):
    """A given module's message (:data:`GIVEN_SAYS`, filled) as a catalog message; else ``message``."""
    for template in GIVEN_SAYS:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(template))
        m = re.fullmatch(pattern, message)
        if m:
            return _(template, **m.groupdict())
    return message


class LearnerRaised(LearnerError):
    status = "error"

    def __init__(self, type_name: str, message: str, traceback: str = ""):
        said = _given_said(message)
        super().__init__(_("your code raised {type}: {message}", type=type_name, message=said), traceback)
        self.type_name = type_name
        self.raw_message = message


class LearnerTimeout(LearnerError):
    status = "timeout"
    # Set by the call that timed out: the longest any thread of the learner's process waited for a
    # CPU during the call (None: not measured), and the call's limit.
    waited_s: float | None = None
    limit_s: float = 0.0

    @property
    def load_free(self) -> bool:
        """The call reached its limit while the machine's load took (nearly) nothing from it: a
        rerun of the same code times out again, so the timeout is a verdict, not the load's."""
        return self.waited_s is not None and self.waited_s <= LOAD_FREE_SHARE * self.limit_s


# A timed-out call whose threads waited for a CPU at most this share of its limit was not slowed
# by the load: even given that time back it would still have run past (nearly) all of its limit.
LOAD_FREE_SHARE = 0.05


class LearnerOutOfMemory(LearnerError):
    status = "oom"


class LearnerOutOfDisk(LearnerOutOfMemory):
    """The work folder, on the host disk (no mount namespace), grew past the work tmpfs's size."""


class LearnerCrashed(LearnerError):
    status = "crashed"


class LearnerBadOutput(LearnerError):
    status = "bad_output"


class LearnerForbidden(LearnerError):
    status = "forbidden_call"


class LearnerUnobserved(LearnerForbidden):
    """The watch's report is missing, late, truncated, malformed or without the proof asked for:
    the learner's code took over the channel or switched the watch off. Never "nothing called"."""

    def __init__(self, what: str, why: str):
        super().__init__(
            _(
                "the grader could not observe what your code called while {what}: {why}. A key point "
                "counts only when the grader's watch reports on it.",
                what=what,
                why=why,
            )
        )


MAX_PAUSE_S = 60.0  # the most a call's deadline moves for time its process spent stopped (paused())
REPORT_WAIT_S = 2.0  # a report is in its pipe before its answer is: only a forged channel is late


MEMORY_POLL_S = 0.1  # how often the memory of all the learner's processes is read, whatever the traffic


class _DeadlineReader:
    """``read(n)`` on a pipe that gives up at a deadline, also in the middle of a frame, and
    calls ``watch()`` every ``tick_s`` on a timer, whether data is flowing or not (it may raise to
    give up early): a learner answering fast never skips a poll."""

    def __init__(
        self,
        stream,
        deadline: float,
        timeout_error,
        watch=lambda: None,
        tick_s: float = 0.1,
        watched: float | None = None,
        stopped=lambda: False,
    ):
        self._fd = stream.fileno()
        self._deadline = deadline
        self._stopped, self._extended, self._ticked = stopped, 0.0, time.monotonic()
        self._timeout_error = timeout_error
        self._watch = watch
        self._tick_s = tick_s
        self._watched = time.monotonic() if watched is None else watched  # the last watch, maybe a call ago

    def read(self, n: int) -> bytes:
        while True:
            now = time.monotonic()
            if now - self._watched >= self._tick_s:  # on a timer, whatever the traffic
                self._watched = now
                self._watch()
            if now - self._ticked >= self._tick_s:
                # Time the learner spent stopped by a check's measurement (paused(): every learner uid)
                # is not its time: the deadline moves by it, up to MAX_PAUSE_S per call (a process
                # that stops itself is not waited for past that).
                if self._extended < MAX_PAUSE_S and self._stopped():
                    self._deadline += now - self._ticked
                    self._extended += now - self._ticked
                self._ticked = now
            left = self._deadline - now
            if left <= 0:
                raise self._timeout_error()
            ready, _, _ = select.select([self._fd], [], [], min(left, self._tick_s))
            if ready:
                return os.read(self._fd, min(n, 1 << 20))


class _OutputTail:
    """The learner's stdout and stderr: a pipe that a thread drains, keeping the last bytes.

    Never a file: nothing the learner's process can replace by a link, nothing that grows on
    the grader's disk, and the check reads only what it keeps (``KEEP`` bytes)."""

    KEEP = 64 << 10

    def __init__(self, read_fd: int):
        self._fd = read_fd
        self._tail = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, name="learner-output", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            while chunk := os.read(self._fd, 1 << 16):
                with self._lock:
                    self._tail += chunk
                    if len(self._tail) > 2 * self.KEEP:
                        del self._tail[: -self.KEEP]
        except OSError:
            pass
        finally:
            os.close(self._fd)

    def text(self, n: int, settle_s: float = 0.0) -> str:
        """The last ``n`` characters; ``settle_s``: first wait that long for the writers to end
        (the process just died: what it wrote last is still in the pipe)."""
        if settle_s:
            self._thread.join(settle_s)
        with self._lock:
            return bytes(self._tail[-n:]).decode(errors="replace")


_INPUTS: dict[int, Path] = {}


def shared_inputs() -> Path:
    """This check process's folder of generated inputs (e.g. JSONL files): the grader's own,
    readable by every learner process of the check (bound read-only into its view)."""
    folder = _INPUTS.get(os.getpid())
    if folder is None:
        folder = _INPUTS[os.getpid()] = Path(tempfile.mkdtemp(prefix="grader-inputs-"))
        folder.chmod(0o755)
    return folder


def drop_shared_inputs() -> None:
    folder = _INPUTS.pop(os.getpid(), None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def learner_env(workdir: str, import_path: str | None = None) -> dict:
    """The learner's whole environment: an allowlist, nothing of the grader's (no report path);
    ``import_path`` its PYTHONPATH (the sandbox's links to what it may import), else the root."""
    env = {k: os.environ[k] for k in LOCALE if k in os.environ}
    env.update(
        PATH=os.pathsep.join([os.path.join(sys.prefix, "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
        HOME=workdir,
        TMPDIR=workdir,
        MPLCONFIGDIR=workdir,
        USER="learner",
        LOGNAME="learner",
        PYTHONPATH=import_path or str(ROOT),
        PYTHONDONTWRITEBYTECODE="1",
        HF_HUB_OFFLINE="1",
        **zygote.THREAD_ENV,
    )
    return env


LOCALE = ("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ")


def non_utf8_env(name: str) -> dict:
    """The environment of a learner whose default text encoding is ``name``'s codeset, the way
    Python decides it: the locale (LC_ALL wins over LANG), UTF-8 mode off (PYTHONUTF8=0: in the C
    locale it would switch itself on) and no coercion of C to C.UTF-8. Only print() keeps UTF-8
    (PYTHONIOENCODING: a GBK console prints Chinese; ASCII would crash on it). The worker applies
    the locale at its start (grader.inside.worker.apply_locale), forked from the zygote or not."""
    return {
        "LC_ALL": name,
        "LC_CTYPE": name,
        "LANG": name,
        "PYTHONUTF8": "0",
        "PYTHONCOERCECLOCALE": "0",
        "PYTHONIOENCODING": "utf-8",
    }


# One input, two answers. Every learner of this check process notes, per call request, what it
# answered (its value or what it raised); grader.engine.plugin tells a learner "your code gave
# different results for the same input" only when a call is listed here, never because a verdict
# varied (a timing under load varies too). Cleared at each key point's start.
_ANSWERS_SEEN: dict[bytes, tuple[bytes, str]] = {}
VARIED_CALLS: list[str] = []


def _digest(data: bytes) -> bytes:
    import hashlib

    return hashlib.blake2b(data, digest_size=16).digest()


def note_answer(request_bytes: bytes, what: str, outcome: bytes) -> None:
    """Record one call's outcome; a second, different outcome for the same request is listed in
    :data:`VARIED_CALLS` with what was called."""
    key, answer = _digest(request_bytes), _digest(outcome)
    seen = _ANSWERS_SEEN.setdefault(key, (answer, what))
    if seen[0] != answer and what not in VARIED_CALLS:
        VARIED_CALLS.append(what)


def forget_answers() -> None:
    _ANSWERS_SEEN.clear()
    VARIED_CALLS.clear()


class Learner:
    """A lazily started learner process for one exercise module.

    ``learner.name(*args)`` calls the function ``name`` of the learner's module;
    :meth:`drive` runs a trusted driver of ``grader.drivers`` inside that process, for checks
    that need live objects (a model, a DataLoader). After a timeout or crash the process is
    gone; further calls in the same key point fail at once with the same error (so a
    property-based search does not wait out the limit again), and :meth:`reset` before the
    next key point starts a fresh process.

    The learner's modules are copied once into the check's own folder (``box/src``); its
    process sees that copy, never the learner's folder. ``shown_as`` names the learner's file
    in messages; ``visible_reference`` overrides :func:`~grader.isolation.sandbox.reference_visible`
    (the runner decides it from the requested target).
    """

    def __init__(
        self,
        module_name: str,
        module_file: str | Path,
        *,
        call_timeout_s: float = 20.0,
        import_timeout_s: float = 60.0,
        memory_gib: float = 4.0,
        max_result_bytes: int = codec.MAX_FRAME_BYTES,
        hidden: list[Path] = (),
        zygote: str | None = None,
        inputs: str | Path | None = None,
        shown_as: str | Path | None = None,
        visible_reference: bool | None = None,
        forbidden: dict | None = None,
        text_locale: str | None = None,
        require_wall: bool | None = None,
    ):
        self.module_name = module_name
        self.module_file = Path(os.path.abspath(module_file))
        self.shown_as = Path(shown_as) if shown_as else self.module_file
        self.call_timeout_s = call_timeout_s
        self.import_timeout_s = import_timeout_s
        self.memory_gib = memory_gib
        self.max_result_bytes = max_result_bytes
        # socket path of a grader.isolation.zygote to fork from, else python -m grader.inside.worker
        self.zygote = zygote
        self.hidden = list(hidden)
        self.forbidden = forbidden or None  # the exercise's "do not call X" rule (grader.course.do_not_call)
        # e.g. "C": the learner's open() without encoding= then decodes with that locale's codeset
        # (ASCII), as on a machine whose locale is not UTF-8 (a Chinese Windows one: GBK)
        self.text_locale = text_locale
        self.last_call: dict | None = None  # {"request", "value" | "raised", "seconds"} of this key point
        self.recent_calls: list[dict] = []  # the key point's last few answered calls, oldest first
        self._proc: subprocess.Popen | None = None
        self._output: _OutputTail | None = None
        self._dead: LearnerError | None = None
        self._start_failed: LearnerError | None = None  # import problems don't change between key points
        visible = reference_visible(self.module_file) if visible_reference is None else visible_reference
        _skip_live_slots()  # a new learner never shares a uid with a live one (a sweep would kill it)
        self._box = Path(tempfile.mkdtemp(prefix="learner-"))  # 0700, the check's own
        self._sandbox = Sandbox(
            int(memory_gib * 2**30),
            box=self._box,
            inputs=Path(inputs) if inputs else None,
            reference_visible=visible,
            hidden=hidden,
            one_process=bool(self.forbidden) and self.forbidden.get("processes") is False,
            require_wall=_sandbox.wall_required() if require_wall is None else require_wall,
        )
        self.isolation = ""  # the level its process measured in its own setup (sandbox.LEVELS)
        self._src = self._make_box()
        _LIVE.add(self)

    def _make_box(self) -> Path:
        """``src/``: a copy of the learner's modules (read without following links);
        ``work/``: its work folder; ``stage/``: a mount point. Only the learner's uid (as group)
        may enter the box, only its work folder is its own."""
        try:
            src = files.snapshot_modules(self.module_file, self._box / "src")
        except OSError as exc:
            raise LearnerImportError(_("{name} cannot be read: {exc}", name=self.shown_as.name, exc=exc)) from None
        self._sandbox.make_import_path()
        (self._box / "stage").mkdir(mode=0o700)
        (self._box / "work").mkdir(mode=0o700)
        if self._sandbox.privileged:
            uid = self._sandbox.uid
            for path, owner, mode in ((self._box / "work", uid, 0o700), (self._box, 0, 0o710)):
                fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
                try:  # through the descriptor of the folder just made, never a path
                    os.fchown(fd, owner, uid)
                    os.fchmod(fd, mode)
                finally:
                    os.close(fd)
        return src

    @property
    def _who(self) -> bytes:
        """Whose answers are compared: the same module in the same conditions (a restarted process
        too), never a learner run under another locale, whose answers may rightly differ."""
        return f"{self.module_file}\0{self.text_locale}\0".encode()

    @property
    def _workdir(self) -> str:
        return str(self._sandbox.workdir)

    # ------------------------------------------------------------------ lifecycle
    def _start(self) -> None:
        found = scan.scan_source(self._src, self.forbidden)  # the copy read without following links
        if found:
            lines = ", ".join(_("line {n} ({name})", n=n, name=name) for n, name in found[:5])
            raise LearnerForbidden(
                _(
                    "forbidden call: {name} refers to what {exercise} forbids: {lines}. The "
                    "stub says: {says}. (A self-test that uses it belongs under `if "
                    '__name__ == "__main__":`.)',
                    name=self.shown_as.name,
                    exercise=self.forbidden.get("exercise") or _("this exercise"),
                    lines=lines,
                    says=_said(self.forbidden),
                )
            )
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        rep_r, rep_w = os.pipe()  # the watch's reports: a channel of their own (grader.inside.worker)
        out_r, out_w = os.pipe()
        try:
            fcntl.fcntl(out_w, fcntl.F_SETPIPE_SZ, 1 << 20)  # room for bursts between drains
        except OSError:
            pass
        path = self._sandbox.import_path
        env = learner_env(self._workdir, str(path) if path else None)
        if self.text_locale:
            env.update(non_utf8_env(self.text_locale))
        if self.forbidden:
            env[watch.ENV] = json.dumps(self.forbidden)
        nonce = env[watch.NONCE_ENV] = secrets.token_hex(16)
        sandbox = self._sandbox.params(report_fd=ans_w)  # the view, computed here: the child only mounts it
        if sandbox["one_process_filter"]:
            env[worker.SYSCALLS_ENV] = sandbox["one_process_filter"]
        try:
            if self.zygote is not None:  # forked from a process that has imported torch already
                self._proc = zygote.spawn(
                    self.zygote,
                    module_name=self.module_name,
                    module_file=str(self._src),
                    cwd=self._workdir,
                    env=env,
                    sandbox=sandbox,
                    fds=(req_r, ans_w, rep_w, out_w),
                )
            else:
                self._proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "grader.inside.worker",
                        str(req_r),
                        str(ans_w),
                        str(rep_w),
                        self.module_name,
                        str(self._src),
                    ],
                    pass_fds=(req_r, ans_w, rep_w),
                    stdin=subprocess.DEVNULL,
                    stdout=out_w,
                    stderr=out_w,
                    cwd=self._workdir,
                    env=env,
                    start_new_session=True,
                    preexec_fn=self._sandbox.preexec,
                )
        except BaseException:
            os.close(out_r)
            os.close(rep_r)
            raise
        finally:
            os.close(req_r)
            os.close(ans_w)
            os.close(rep_w)
            os.close(out_w)
        self._output = _OutputTail(out_r)
        self._requests = os.fdopen(req_w, "wb")
        self._answers = os.fdopen(ans_r, "rb")
        self._reports = os.fdopen(rep_r, "rb")
        self.isolation = self._setup_report()
        # Importing torch takes a while; the import gets its own, longer budget.
        what = _("importing {name}", name=self.shown_as.name)
        hello = self._receive(self.import_timeout_s, _("importing your module"))
        hits = self._report(nonce, what)
        if not hello["ok"]:
            raise self._error(hello["error"])
        self._check_filters(what)
        if hits:
            raise self._forbidden(hits, what)

    def _report(self, nonce: str, what: str) -> list[str]:
        """The watch's report on what just ran (the worker wrote it before the answer): the names
        it logged. No report in time, a malformed one, or one without ``nonce``'s proof noted last
        through the log: :class:`LearnerUnobserved`."""
        stream = _DeadlineReader(
            self._reports,
            time.monotonic() + REPORT_WAIT_S,
            lambda: LearnerUnobserved(what, _("its report did not come with the answer")),
        )
        try:
            report = codec.read(stream, 1 << 20)
        except EOFError:
            raise LearnerUnobserved(what, _("its report channel was closed or cut short")) from None
        except codec.CodecError:
            raise LearnerUnobserved(what, _("its report is not one the grader's watch writes")) from None
        log = report.get("log") if isinstance(report, dict) else None
        if not isinstance(log, list) or not all(isinstance(h, str) for h in log) or len(log) > worker.MAX_REPORTED:
            raise LearnerUnobserved(what, _("its report is not one the grader's watch writes"))
        if not log or log[-1] != watch.proof(nonce):
            raise LearnerUnobserved(
                what, _("its log did not record what the grader noted in it (the watch was switched off)")
            )
        for stream in (self._answers, self._reports):  # one answer, one report: never a frame ahead
            pending = array.array("i", [0])
            fcntl.ioctl(stream.fileno(), termios.FIONREAD, pending)
            if pending[0]:
                raise LearnerUnobserved(what, _("more came on its channel than the grader's worker writes"))
        return log[:-1]

    def _check_filters(self, what: str) -> None:
        """The seccomp filters promised are in the kernel, read from outside the learner's process."""
        held = procfs.seccomp_filters(self._proc.pid)
        expected = self._sandbox.filters_expected()
        if held is not None and held < expected:
            raise LearnerUnobserved(
                what, _("its process holds {held} system-call filters, not {expected}", held=held, expected=expected)
            )

    def _setup_report(self) -> str:
        """The level the process's own setup applied: its first frame, written before anything
        of the learner's ran. A process that refused to run without the wall is the grader's
        problem here (:class:`NoWall`), never the learner's."""
        try:
            report = self._receive(self.import_timeout_s, _("starting your process"))
        except LearnerCrashed:
            code = self._proc.wait(timeout=5) if self._proc is not None else None
            if code == _sandbox.EXIT_NO_WALL:
                raise NoWall(no_wall_message()) from None
            raise
        level = report.get("sandbox") if isinstance(report, dict) else None
        if level not in _sandbox.LEVELS:
            raise LearnerBadOutput(_("the learner's process did not report its sandbox"))
        _APPLIED.add(level)
        return level

    def reset(self) -> None:
        """Forget a previous timeout/crash; the next call starts a fresh process if needed."""
        self._dead = None
        self.last_call = None
        self.recent_calls = []

    def restart(self) -> None:
        """End the process now; the next call starts a fresh one (e.g. to measure a peak anew)."""
        self._kill()

    def _is_stopped(self) -> bool:
        """Whether the learner's process is stopped now (SIGSTOP: a check measuring, see paused())."""
        try:
            return self._proc is not None and procfs.state(self._proc.pid) == "T"
        except OSError:
            return False

    @contextlib.contextmanager
    def paused(self):
        """Every process of the learner stopped while the check measures something of its own
        (a reference timing or profile): what the learner left running cannot blur it."""
        leader = self._proc.pid if self._proc is not None else None
        self._sandbox.stop_all(leader)
        try:
            yield
        finally:
            self._sandbox.stop_all(leader, resume=True)

    def peak_rss_bytes(self) -> int:
        """The learner process's peak resident memory (VmHWM), read from outside it."""
        return self.vm_status()["VmHWM"]

    def vm_status(self) -> dict[str, int]:
        """``/proc/<pid>/status`` of the learner's process, read from outside it (bytes)."""
        if self._proc is None:
            raise RuntimeError("the learner's process is not running")
        return procfs.status(self._proc.pid)

    def watched(self, run: Callable[[], Any]) -> tuple[Any, dict]:
        """``run()`` (a call or drive of this learner), while the learner's other processes (all of its uid's) are
        sampled from /proc every few ms: ``(result, {"pids": [...], "peak_hwm": max VmHWM of any of them,
        "children_cpu_s": CPU time of children waited for during the call})``. A measurement of
        the learner process's own memory is meaningless when the work ran in another process."""
        leader = self._proc.pid if self._proc is not None else None
        before = procfs.cpu_times(leader)["children_s"] if leader else 0.0
        seen, peak, stop = set(), [0], threading.Event()

        def sample():
            while not stop.is_set():
                lead = self._proc.pid if self._proc is not None else None
                if lead:
                    for pid in self._sandbox.others(lead):
                        seen.add(pid)
                        try:
                            peak[0] = max(peak[0], procfs.status(pid).get("VmHWM", 0))
                        except OSError:
                            pass
                stop.wait(0.005)

        watcher = threading.Thread(target=sample, daemon=True)
        watcher.start()
        try:
            result = run()
        finally:
            stop.set()
            watcher.join()
        lead = self._proc.pid if self._proc is not None else None
        after = procfs.cpu_times(lead)["children_s"] if lead else before
        if lead != leader:  # started by this call: its children's time is all of this call's
            before = 0.0
        return result, {"pids": sorted(seen), "peak_hwm": peak[0], "children_cpu_s": after - before}

    def cpu_times(self) -> dict:
        """CPU seconds of the learner process, read from ``/proc/<pid>/stat`` outside it:
        ``self_s`` (utime + stime: all its threads) and ``children_s`` (cutime + cstime: its
        child processes once waited for, e.g. a process pool's workers after join/terminate)."""
        if self._proc is None:
            raise RuntimeError("the learner's process is not running")
        return procfs.cpu_times(self._proc.pid)

    def children_cpu(self) -> dict:
        """``{pid: CPU seconds}`` of the learner process's LIVE child processes (e.g. a pool's
        workers while they run), read from ``/proc`` outside it: sampled during a call, it says
        whether several children ran at once."""
        if self._proc is None:
            raise RuntimeError("the learner's process is not running")
        return procfs.children_cpu(self._proc.pid)

    _closed = False

    def close(self) -> None:
        self._closed = True
        self._kill()
        shutil.rmtree(self._box, ignore_errors=True)  # fd-based: a link left in work/ is removed, not followed

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        self._sandbox.sweep()  # whatever it started, in any session
        for f in (self._requests, self._answers, self._reports):
            try:
                f.close()
            except OSError:
                pass

    # ------------------------------------------------------------------ calls
    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self.call(name, *args, **kwargs)

    def call(self, name: str, *args: Any, timeout_s: float | None = None, **kwargs: Any) -> Any:
        """Call ``name(*args, **kwargs)`` in the learner's module and return its result."""
        return self._request({"op": "call", "name": name, "args": list(args), "kwargs": kwargs}, timeout_s, f"{name}()")

    def drive(self, driver: str, *args: Any, timeout_s: float | None = None, **kwargs: Any) -> Any:
        """Run ``grader.drivers.<module>:<function>(learner_module, *args, **kwargs)`` there."""
        return self._request(
            {"op": "drive", "driver": driver, "args": list(args), "kwargs": kwargs},
            timeout_s,
            driver.rpartition(":")[2] + "()",
        )

    def _request(self, request: dict, timeout_s: float | None, what: str) -> Any:
        if self._dead is not None or self._start_failed is not None:
            raise self._start_failed or self._dead
        self.last_call = {"request": request, "seconds": None}
        started = time.monotonic()
        waited: dict[int, float] = {}
        try:
            if self._proc is None:
                try:
                    self._start()
                except LearnerError as exc:
                    self._start_failed = exc
                    raise
            waited = procfs.run_delays(self._proc.pid)  # from here: the call's own wait, not the start's
            if time.monotonic() - self._memory_checked >= MEMORY_POLL_S:  # between calls too
                self._check_memory(what)
            frame = codec.dumps(request)  # what the call is, for note_answer: the nonce aside
            nonce = secrets.token_hex(16)  # the proof its report must carry: unknown before it is sent
            self._requests.write(codec.dumps({**request, "nonce": nonce}))
            self._requests.flush()
            answer = self._receive(timeout_s or self.call_timeout_s, what)
            hits = self._report(nonce, _("answering {what}", what=what))
        except LearnerError as exc:
            if isinstance(exc, LearnerTimeout) and exc.waited_s is None and self._proc is not None:
                now = procfs.run_delays(self._proc.pid)
                exc.limit_s = timeout_s or self.call_timeout_s
                exc.waited_s = max((d - waited.get(t, 0.0) for t, d in now.items()), default=None)
            if isinstance(
                exc,
                (
                    LearnerTimeout,
                    LearnerCrashed,
                    LearnerImportError,
                    LearnerBadOutput,
                    LearnerOutOfMemory,
                    LearnerForbidden,  # raised here: unobserved, or another process (never a finding)
                ),
            ):
                self._kill()
                self._dead = exc
            raise
        except BrokenPipeError:
            exc = self._died(what)
            self._kill()
            self._dead = exc
            raise exc from None
        self.last_call["seconds"] = time.monotonic() - started
        self.recent_calls = [*self.recent_calls[-7:], self.last_call]
        self._check_one_process(what)
        if hits:  # whether it returned or raised: the key point fails
            raise self._forbidden(hits, _("answering {what}", what=what))
        if not answer["ok"]:
            error = self._error(answer["error"])
            self.last_call["raised"] = getattr(error, "type_name", error.status)
            if isinstance(error, LearnerRaised):  # what it raised is its answer too
                note_answer(
                    self._who + frame, what, f"raised {error.type_name}".encode()
                )  # not its text: addresses vary
            raise error
        try:
            note_answer(self._who + frame, what, b"value" + codec.dumps(answer["value"]))
        except codec.CodecError:  # decoded from the wire, so it encodes; never fail a call on the note
            pass
        self.last_call["value"] = answer["value"]
        return answer["value"]

    def _forbidden(self, hits: list, doing: str) -> LearnerForbidden:
        rule = self.forbidden or {}
        shown = [str(h)[:200] for h in hits[:6]] + ([_("and {n} more", n=len(hits) - 6)] if len(hits) > 6 else [])
        return LearnerForbidden(
            _(
                "forbidden call: while {doing} your code called {calls}, which {exercise} forbids. "
                "The stub says: {says}.",
                doing=doing,
                calls=", ".join(shown),
                exercise=rule.get("exercise") or _("this exercise"),
                says=_said(rule),
            )
        )

    def _receive(self, timeout_s: float, what: str) -> dict:
        stream = _DeadlineReader(
            self._answers,
            time.monotonic() + timeout_s,
            lambda: LearnerTimeout(_("{what} timed out after {timeout_s:g} s", what=what, timeout_s=timeout_s)),
            watch=lambda: self._check_memory(what),
            tick_s=MEMORY_POLL_S,
            watched=self._memory_checked,
            stopped=self._is_stopped,
        )
        try:
            answer = codec.read(stream, self.max_result_bytes)
        except EOFError:
            raise self._died(what) from None
        except codec.FrameTooLarge as exc:
            raise LearnerBadOutput(_("{what} returned output too large: {exc}", what=what, exc=exc)) from None
        except codec.CodecError as exc:
            raise LearnerBadOutput(
                _("{what} returned something that is not plain data: {exc}", what=what, exc=exc)
            ) from None
        if not isinstance(answer, dict) or "ok" not in answer:
            raise LearnerBadOutput(_("{what}: malformed answer from the learner process", what=what))
        return answer

    _memory_checked = 0.0

    def _check_one_process(self, what: str) -> None:
        """Where libseccomp is missing the one-process filter is not there to refuse a fork: the check
        sees the learner uid's other live process instead, on every poll and after every answer (a
        fast answer never slips between two polls). With the filter, a process still dying from an
        earlier key point is no evidence, so nothing is asked."""
        box = self._sandbox
        if self._proc is None or not (box.one_process and box.privileged) or box.one_process_filtered():
            return
        if [p for p in box.others(self._proc.pid) if procfs.state(p) not in (None, "Z", "X")]:
            raise LearnerForbidden(
                _(
                    "{what}: your code started another process, which {exercise} does not allow: its answer "
                    "runs in one process",
                    what=what,
                    exercise=self.forbidden.get("exercise", _("this exercise")),
                )
            )

    def _check_memory(self, what: str) -> None:
        """All the learner's processes together stay under the cap (RLIMIT_AS caps each one)."""
        self._memory_checked = time.monotonic()
        if self._proc is None:
            return
        self._check_one_process(what)
        used = self._sandbox.memory_in_use(self._proc.pid)
        if used > self._sandbox.memory_bytes:
            raise LearnerOutOfMemory(
                _(
                    "{what}: your processes together exceeded the {memory_gib:g} GiB memory cap ({value:.1f} GiB)",
                    what=what,
                    memory_gib=self.memory_gib,
                    value=used / 2**30,
                ),
                self.output_tail(),
            )
        written = self._sandbox.work_bytes()  # the same cap as the work tmpfs's where there is none
        if written > _sandbox.WORK_BYTES:
            raise LearnerOutOfDisk(
                _(
                    "{what}: your files in the work folder exceeded its {cap_mib} MiB cap ({value:.0f} MiB)",
                    what=what,
                    cap_mib=_sandbox.WORK_BYTES >> 20,
                    value=written / 2**20,
                ),
                self.output_tail(),
            )

    def _died(self, what: str) -> LearnerError:
        proc = self._proc
        try:
            code = proc.wait(timeout=5) if proc is not None else None
        except subprocess.TimeoutExpired:  # it shut its end of the channel and lives on: the learner's doing
            tail = self.output_tail(settle_s=0.5)
            self._kill()
            return LearnerCrashed(
                _("{what}: your process closed its channel to the grader and kept running (it was stopped)", what=what),
                tail,
            )
        tail = self.output_tail(settle_s=0.5)
        if code is not None and code < 0:
            sig = signal.Signals(-code).name
            if sig == "SIGKILL":
                return LearnerOutOfMemory(
                    _(
                        "{what}: your process was killed (SIGKILL), most likely for exceeding "
                        "the {memory_gib:g} GiB memory cap",
                        what=what,
                        memory_gib=self.memory_gib,
                    ),
                    tail,
                )
            return LearnerCrashed(_("{what}: your process died from {sig}", what=what, sig=sig), tail)
        return LearnerCrashed(
            _("{what}: your process exited (code {code}) instead of returning", what=what, code=code), tail
        )

    def _error(self, err: dict) -> LearnerError:
        # The learner's process loads a copy; messages name the learner's own file.
        err = {k: v.replace(str(self._src), str(self.shown_as)) if isinstance(v, str) else v for k, v in err.items()}
        kind, tb = err["kind"], err.get("traceback", "")
        if self._sandbox.one_process and err.get("type") == "PermissionError":  # most likely the filter's refusal
            err["message"] += " " + _(
                "({exercise}'s answer runs in one process: the grader refuses it a new process or program)",
                exercise=self.forbidden.get("exercise", _("this exercise")),
            )
        if kind == "import":
            return LearnerImportError(
                _(
                    "{name} does not import: {type}: {message}",
                    name=self.shown_as.name,
                    type=err["type"],
                    message=err["message"],
                ),
                tb,
            )
        if kind == "not_implemented":
            # the stubs raise NotImplementedError("A2: nbytes"): the report names the exercise already
            what = re.sub(r"^[A-Z]\d*:\s*", "", err["message"]) or "NotImplementedError"
            return NotImplementedYet(_("{what} still raises NotImplementedError", what=what), tb)
        if kind == "oom":
            return LearnerOutOfMemory(
                _("exceeded the {memory_gib:g} GiB memory cap ({type})", memory_gib=self.memory_gib, type=err["type"]),
                tb,
            )
        if kind == "exit":
            return LearnerCrashed(
                _("your code called {call} instead of returning", call=err["message"].removeprefix("called ")), tb
            )
        if kind == "bad_output":
            return LearnerBadOutput(
                _("your function returned something that is not plain data: {message}", message=err["message"]), tb
            )
        return LearnerRaised(err["type"], err["message"], tb)

    def output_tail(self, n: int = 1500, settle_s: float = 0.0) -> str:
        """The last ``n`` characters the learner's code printed."""
        return self._output.text(n, settle_s) if self._output is not None else ""


_LIVE: weakref.WeakSet[Learner] = weakref.WeakSet()
_APPLIED: set[str] = set()  # the levels this process's learners measured in their own setup


def applied_level() -> str:
    """The weakest level any learner process of this check got so far ("" before the first)."""
    return _sandbox.weakest(_APPLIED)


class NoWall(RuntimeError):
    """A learner's process needed a file-system wall this machine cannot give: nothing was graded."""


def no_wall_message() -> str:
    return _(
        "no file-system wall here ({level}): the learner's code could read the checks, the solutions and "
        "the engine, so it is not run. Give the grader CAP_SYS_ADMIN (namespaces) or a kernel with Landlock "
        "(5.13+), or pass --allow-unsandboxed (GRADER_ALLOW_UNSANDBOXED=1) to grade trusted code anyway",
        level=_(_sandbox.isolation_level()),
    )


def unreachable_python_message(folder: str) -> str:
    return _(
        "this Python is out of the learner's reach here ({level}): {folder} is closed to other users, so the "
        "learner's processes could not import what they need; nothing in the submission is at fault, and "
        "nothing is graded. Install the grader with a Python outside /root (in a folder other users may "
        "enter), or give the grader CAP_SYS_ADMIN (namespaces)",
        level=_(_sandbox.isolation_level()),
        folder=folder,
    )


def _skip_live_slots() -> None:
    """Sandbox slots go round-robin; skip the ones whose uid a learner not yet closed holds
    (e.g. the key point's learner while :mod:`grader.engine.misconceptions` replays its call)."""
    used = {h._sandbox.uid for h in list(_LIVE) if not h._closed}
    for _slot in range(_sandbox.SLOTS):
        if _sandbox.uid_for(os.getpid(), Sandbox._next_slot % _sandbox.SLOTS) not in used:
            return
        Sandbox._next_slot += 1


class InProcessLearner:
    """The same interface, calling the module directly in the check's process.

    For the benchmark only (``grader bench`` measures the checks' and solutions' own compute
    with it, so that the isolation overhead is a ratio); never used to grade anyone.
    """

    def __init__(self, module_name: str, module_file: str | Path, **_):
        import importlib.util

        self.last_call = None

        spec = importlib.util.spec_from_file_location(module_name, module_file)
        self._module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = self._module  # as the worker does: pickling its functions needs it
        sys.path.insert(0, str(Path(module_file).parent))
        spec.loader.exec_module(self._module)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self.call(name, *args, **kwargs)

    def call(self, name: str, *args: Any, timeout_s: float | None = None, **kwargs: Any) -> Any:
        try:
            fn = getattr(self._module, name)
            return fn(*args, **kwargs) if callable(fn) else fn
        except Exception as exc:  # noqa: BLE001 - same verdicts as the isolated path
            raise LearnerRaised(type(exc).__name__, str(exc)) from None

    def drive(self, driver: str, *args: Any, timeout_s: float | None = None, **kwargs: Any) -> Any:
        import importlib

        mod_name, _, fn_name = driver.partition(":")
        return getattr(importlib.import_module(mod_name), fn_name)(self._module, *args, **kwargs)

    def cpu_times(self) -> dict:
        """This process's CPU times (the module runs here): same fields as :meth:`Learner.cpu_times`."""
        return procfs.cpu_times("self")

    def children_cpu(self) -> dict:
        return procfs.children_cpu(os.getpid())

    def reset(self) -> None:
        pass

    def paused(self):
        return contextlib.nullcontext()  # the learner's code runs here: nothing of its own to stop

    def close(self) -> None:
        pass
