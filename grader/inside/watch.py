"""LEARNER-VISIBLE, runs in the learner's process: the watch on what its exercise forbids it to call.

A stub may say "do not call X" (P1: ``F.scaled_dot_product_attention``; A3: NumPy or torch;
A2: no torch, no numpy; A4: an optimizer). The rule is plain data (its format and the rules
themselves: :mod:`grader.course.do_not_call`, check side); the check side passes it in the
environment (:data:`ENV`) and scans the learner's source itself (:mod:`grader.isolation.scan`).

:func:`install` runs in :mod:`grader.inside.worker`, from the rule in the environment, before
the learner's module is imported. The worker runs the import and every answer inside
:meth:`Watch.during`; what was called goes in a report of its own, on a pipe of its own, with the
proof the check asked for noted last through the same log (:func:`proof`), and
:class:`grader.isolation.learner.Learner` turns a finding into a failure, and a report that did
not come, or came without its proof, into one too. Nothing it relies on is
thread-local: wrappers replace module attributes, library modules log who reads their
attributes, the torch profiler records every operator of every thread, and each thread the
learner starts gets the profile and trace hooks before its first line. A child the learner
forks keeps the watch and reports through a socket; a new program it starts (subprocess,
multiprocessing's spawn) is reported as such. A hook that the learner's code switches off is
itself reported.

"Using a library" (``libraries``) means the learner's code (not the grader's, not the library's
own) entering its functions, reading attributes of its modules, holding its objects (functions,
types, arrays, tensors: in a variable, a global, a closure, a container) or running a torch
operator. Importing it is not using it, unless ``libraries_when`` is ``always``; types are never
replaced (a Cython module checks ``numpy.broadcast`` is a type when it is imported).

All of this runs in the learner's process, so it is observed on trust: code that understands it
can forge its report (docs/security.md lists what is enforced from outside instead: a rule's
answer runs in one process, no new process or program, by the kernel's seccomp filter; a report
that is missing, late, truncated or without its proof fails the key point). What is still
possible: ``ctypes``; a library object reached by ``object.__getattribute__`` and used
in one expression (no variable holds it: the scan reports ``__getattribute__``); a channel of its
own to another process it started before a rule applies; or editing this module's state (the
scan reports importing it). The checks still compare every answer with ground truth computed
outside the learner's process.
"""

from __future__ import annotations

import _thread
import functools
import importlib
import json
import os
import sys
import threading
import types
from contextlib import ExitStack, contextmanager

ENV = "GRADER_FORBIDDEN"  # the rule, as JSON, in the learner's environment (popped at install)
NONCE_ENV = "GRADER_NONCE"  # the nonce of the import's report (a call's comes in its request)

LEARNER, GRADER, TRANSPARENT = "learner", "grader", "transparent"  # a frame's owner; else a library's name
_GRADER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_SET_PROFILE, _SET_TRACE, _GET_PROFILE, _GET_TRACE = sys.setprofile, sys.settrace, sys.getprofile, sys.gettrace
_START_THREAD = _thread.start_new_thread
_PLAIN = (int, float, complex, str, bytes, bool, type(None), slice, range, type(Ellipsis))
_MAX_ITEMS = 64  # of a container looked into
_ACTIVE: Watch | None = None  # the process's watch (one learner module per process)
_BOUNDARIES: set = set()  # code objects whose callees are the learner's doing (the worker's call, a learner thread)


class Watch:
    """The learner-side log: ``hits`` are display names of forbidden calls, oldest first."""

    def __init__(self, rule: dict | None, learner_dir: str | None = None, learner_module: str | None = None):
        self.rule = rule = rule or {}
        self.hits: list[str] = []
        self.phase: str | None = None  # "import" | "answer" while the learner's code runs
        self.libraries = tuple(rule.get("libraries", ()))
        self.strict = rule.get("libraries_when") == "always"
        self.python_names = tuple(rule.get("python_names", ()))
        self.aten = tuple(rule.get("aten_ops", ()))
        self.names = set(rule.get("source_names", ())) | {c.rpartition(".")[2] for c in rule.get("callables", ())}
        self.learner_dir = (os.path.abspath(learner_dir) + os.sep) if learner_dir else None
        self.learner_module = learner_module
        self._libs_on = False  # the libraries are off limits now
        self._local = threading.local()  # depth inside a watched callable, per thread
        self._modes: list = []
        self._modes_built = False
        self._pending = list(rule.get("callables", ()))  # wrapped once their module is loaded
        self._owners: dict[str, str] = {}  # file name -> LEARNER | GRADER | TRANSPARENT | library name
        self._roots = {}
        for lib in {*self.libraries, *(["torch"] if self.python_names or self.aten else [])}:
            root = _package_root(lib)
            if root:
                self._roots[lib] = root
        self._swapped: dict[int, tuple[types.ModuleType, str]] = {}  # id -> (module, its name)
        self.hooks = bool(self.libraries or self.python_names)  # profile (and trace) hooks in every thread
        self._profiling = self._tracing = False
        self._modes_on: list = []  # the modes entered for this phase
        self._recording = False  # torch's profiler runs for this phase (its probe is looked for at stop)
        self._child = False
        self._channel = None  # (read socket, write socket, its inode): what forked children noted

    # ------------------------------------------------------------------ the log
    def note(self, name: str) -> None:
        if self._child:  # a forked child of the learner's process: its parent reports it, for
            try:  # each answer (a full queue drops the datagram, never blocks the child)
                self._channel[1].send(name[:300].encode(errors="replace"))
            except OSError:
                pass
            return
        if name not in self.hits:
            self.hits.append(name)

    def _forked(self) -> None:
        """In a child forked by the learner's code: whatever it does, it does for the answers
        (a helper process forked at import serves them later), so the libraries are off limits."""
        self._child = True
        if self.libraries:
            self.strict = self._libs_on = True
        if self.phase is None:
            self.phase = "answer"

    def _collect(self) -> None:
        """What the learner's forked children noted (they run its code with the same watch)."""
        if self._channel is None:
            return
        read, write, inode = self._channel
        try:
            if os.fstat(write.fileno()).st_ino != inode:
                self.note(f"os.close of the grader's socket for child processes{_OFF}")
                return
            for _ in range(256):
                self.note(f"{read.recv(1024).decode(errors='replace')} (in a child process)")
        except OSError:  # none left (BlockingIOError), or closed
            return

    def take(self) -> list[str]:
        hits, self.hits = self.hits, []
        return hits

    @contextmanager
    def during(self, phase: str):
        """The learner's code runs (``"import"``: its module; ``"answer"``: a call): the watches
        that are not always on (modes, the profiler, this thread's hooks) are on meanwhile."""
        self.phase = phase
        self._libs_on = bool(self.libraries) and (phase == "answer" or self.strict)
        self._sync()
        with ExitStack() as stack:
            if self.hooks:
                previous = (_GET_PROFILE(), _GET_TRACE())
                _SET_PROFILE(_profile)
                self._profiling = True
                if self.libraries:
                    _SET_TRACE(_trace)
                    self._tracing = True
                stack.callback(self._restore_hooks, previous)
            self._start_profiler(stack, self._libs_on and "torch" in self.libraries)
            self._modes_on = list(self._mode_classes())
            for make in self._modes_on:
                stack.enter_context(make())
            try:
                yield
            finally:
                self._collect()
                self._check_intact()
                self._libs_on = False
                self.phase = None

    def active(self):  # the name before phases existed
        return self.during("answer")

    def inspect_answer(self, fn) -> None:
        """The function the worker is about to call is itself the library's (``f = np.broadcast_shapes``)."""
        if self._libs_on:
            what = self._library_object(fn)
            if what:
                self.note(f"{what} (your function is the library's)")

    # ------------------------------------------------------------------ set-up
    def _sync(self) -> None:
        """Watch what was loaded since the last phase: library modules' attribute reads, and the
        forbidden callables whose module is loaded now."""
        if self._pending:
            self._pending = [d for d in self._pending if not _wrap_callable(d, self)]
        if not self.libraries or len(sys.modules) == getattr(self, "_seen_modules", -1):
            return
        for name, module in list(sys.modules.items()):
            if isinstance(module, types.ModuleType) and id(module) not in self._swapped and self._library_of_name(name):
                watched = _watched_class(type(module))
                try:
                    object.__setattr__(module, "__class__", watched)
                except (TypeError, AttributeError):
                    continue
                self._swapped[id(module)] = (module, name)
        self._seen_modules = len(sys.modules)

    def _mode_classes(self) -> list:
        if self._modes_built or "torch" not in sys.modules:
            return self._modes
        self._modes_built = True
        names, aten = set(self.rule.get("torch_functions", [])), self.aten
        if not (names or aten):
            return self._modes
        from torch.overrides import TorchFunctionMode
        from torch.utils._python_dispatch import TorchDispatchMode

        watch = self
        if names:

            class _FunctionLog(TorchFunctionMode):
                def __torch_function__(self, func, types, args=(), kwargs=None):
                    if getattr(func, "__name__", "") in names:
                        watch.note(_display(func))
                    return func(*args, **(kwargs or {}))

            self._modes.append(_FunctionLog)
        if aten:

            class _DispatchLog(TorchDispatchMode):
                def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                    name = func.name()
                    if any(part in name for part in aten):
                        watch.note(name)
                    return func(*args, **(kwargs or {}))

            self._modes.append(_DispatchLog)
        return self._modes

    def _start_profiler(self, stack: ExitStack, whole: bool) -> None:
        """Torch's profiler records every operator of every thread (not thread-local like the modes);
        ``whole``: any operator is a hit (torch is forbidden), else those named in ``aten_ops``."""
        if "torch" not in sys.modules or not (self.aten or whole):
            return
        from torch._C._profiler import ProfilerActivity, ProfilerConfig, ProfilerState, _ExperimentalConfig
        from torch.autograd import profiler as P

        config = ProfilerConfig(
            ProfilerState.KINETO, False, False, False, False, False, _ExperimentalConfig(profile_all_threads=True)
        )
        activities = {ProfilerActivity.CPU}
        quiet = "KINETO_LOG_LEVEL" not in os.environ  # read when it starts: no start/stop lines in
        if quiet:  # the learner's output, nothing left in its environment
            os.environ["KINETO_LOG_LEVEL"] = "99"
        try:
            P._prepare_profiler(config, activities)
            P._enable_profiler(config, activities)
        except RuntimeError:  # one runs already: the learner's, started to block this one
            self.note(f"a torch profiler of its own, left running{_OFF}")
            return
        finally:
            if quiet:
                os.environ.pop("KINETO_LOG_LEVEL", None)
        self._recording = True
        stack.callback(self._stop_profiler, P, whole)

    def _stop_profiler(self, P, whole: bool) -> None:
        self._recording = False
        try:
            events = P._disable_profiler().events()
        except RuntimeError:
            self.note(f"torch's profiler stop{_OFF}")
            return
        names = [event.name() for event in events]
        if _PROBE not in names:  # recorded at report time (_check_intact) on the learner's thread
            self.note(f"torch._C._autograd._enable_record_function(False), left in force{_OFF}")
        for name in names:
            if name == _PROBE:
                continue
            if whole or any(part in name for part in self.aten):
                self.note(f"{name} (a torch operation)")
                if whole:
                    return

    def _restore_hooks(self, previous) -> None:
        _SET_PROFILE(previous[0])
        _SET_TRACE(previous[1])
        self._profiling = self._tracing = False

    def _check_intact(self) -> None:
        """The learner's code may have switched a watch off: that is reported, not ignored."""
        off = []
        if self._profiling and _GET_PROFILE() is not _profile:
            off.append("sys.setprofile")
        if self._tracing and _GET_TRACE() is not _trace:
            off.append("sys.settrace")
        if self.hooks and (
            _thread.start_new_thread is not _start_learner_thread
            or threading._start_new_thread is not _start_learner_thread
        ):
            off.append("a replaced _thread.start_new_thread")
        for module, name in self._swapped.values():
            if not getattr(type(module), "_grader_watched", False):
                off.append(f"{name}.__class__ =")
                break
        off += self._torch_switched_off()
        for what in off:
            self.note(f"{what}{_OFF}")

    def _torch_switched_off(self) -> list[str]:
        """At report time, on the thread that ran the learner's code: torch's modes and its
        operator recording are still on (code that turns them off and back on around its call is
        the scan's to find: in-process, this is observed on trust)."""
        if "torch" not in sys.modules or not (self._modes_on or self._recording):
            return []
        import torch

        C, off = torch._C, []
        if self._modes_on and (
            C._len_torch_dispatch_stack() == 0 or C._dispatch_tls_is_dispatch_key_excluded(C.DispatchKey.Python)
        ):
            off.append("torch._C._DisableTorchDispatch, left in force")
        if self._modes_on and not C._is_torch_function_mode_enabled():
            off.append("torch._C.DisableTorchFunction, left in force")
        if self._recording:
            # missing from the profiler's events if recording is off (_stop_profiler); not an operator
            C._autograd._record_function_with_args_exit(C._autograd._record_function_with_args_enter(_PROBE))
        return off

    # ------------------------------------------------------------------ who did it
    def _owner(self, filename: str) -> str:
        owner = self._owners.get(filename)
        if owner is None:
            if self.learner_dir and filename.startswith(self.learner_dir):
                owner = LEARNER
            elif filename.startswith(_GRADER_DIR):
                owner = GRADER
            else:
                owner = next((lib for lib, root in self._roots.items() if filename.startswith(root)), TRANSPARENT)
            self._owners[filename] = owner
        return owner

    def _actor(self, frame) -> str:
        """Whose doing a frame's action is: the nearest frame up the stack that is the learner's,
        the grader's or a library's (the standard library and generated code are see-through)."""
        while frame is not None:
            code = frame.f_code
            if code in _BOUNDARIES:
                return LEARNER
            owner = self._owner(code.co_filename)
            if owner is not TRANSPARENT:
                return owner
            frame = frame.f_back
        return LEARNER  # the bottom of a thread the learner started from C

    def _library_of_name(self, name) -> str | None:
        if not isinstance(name, str):
            return None
        for lib in self.libraries:
            if name == lib or name.startswith(lib + "."):
                return lib
        return None

    def _library_object(self, value, depth: int = 2) -> str | None:
        """A display name if ``value`` is (or holds) one of the forbidden libraries' objects: a
        module, a function, type or descriptor defined there, an instance of its types (an array,
        a tensor, a dtype); or a container, partial, bound method or object of the learner's that
        holds one (``depth`` levels down)."""
        kind = type(value)
        if kind in _PLAIN:
            return None
        try:
            if isinstance(value, types.ModuleType):
                name = types.ModuleType.__getattribute__(value, "__dict__").get("__name__")
                return name if self._library_of_name(name) else None
            for base in kind.__mro__[:-1]:  # an instance of its types, or of the learner's subclass of one
                if self._library_of_name(base.__module__):
                    return f"a {base.__module__}.{base.__qualname__}"
            for base in value.__mro__[1:-1] if isinstance(value, type) else ():
                if self._library_of_name(base.__module__):
                    return f"{base.__module__}.{base.__qualname__} (a base of {value.__qualname__})"
            module = _defined_in(value)
            if self._library_of_name(module):
                return f"{module}.{getattr(value, '__qualname__', getattr(value, '__name__', '?'))}"
            if depth <= 0:
                return None
            if isinstance(value, types.MethodType):
                items = [value.__func__, value.__self__]
            elif isinstance(value, functools.partial):
                items = [value.func, *value.args[:_MAX_ITEMS], *list(value.keywords.values())[:_MAX_ITEMS]]
            elif kind in (tuple, list, set, frozenset):
                items = list(value)[:_MAX_ITEMS]
            elif kind is dict:
                items = [*list(value.keys())[:_MAX_ITEMS], *list(value.values())[:_MAX_ITEMS]]
            elif isinstance(value, type) and self.learner_module and value.__module__ == self.learner_module:
                items = list(value.__dict__.values())[:_MAX_ITEMS]  # a class of the learner's
            elif self.learner_module and kind.__module__ == self.learner_module:
                own = object.__getattribute__(value, "__dict__") if hasattr(kind, "__dict__") else {}
                items = list(own.values())[:_MAX_ITEMS] if isinstance(own, dict) else []  # its instance
            else:
                return None
        except Exception:  # noqa: BLE001 - whatever the learner's object does when looked at
            return None
        return next(filter(None, (self._library_object(v, depth - 1) for v in items)), None)

    # ------------------------------------------------------------------ the hooks' bodies
    def _call(self, frame) -> None:
        """A Python function starts (profile hook)."""
        code = frame.f_code
        lib = self._owner(code.co_filename)
        if lib in (LEARNER, GRADER, TRANSPARENT):
            return
        if self.python_names and any(part in code.co_name for part in self.python_names):
            self.note(f"{frame.f_globals.get('__name__', lib)}.{code.co_qualname}")
        if self._libs_on and lib in self.libraries:
            caller = frame.f_back
            if caller is not None and self._owner(caller.f_code.co_filename) in self._roots:
                return  # the library calling itself
            if self._actor(caller) == LEARNER:
                module = frame.f_globals.get("__name__", lib)
                self.note(f"import {module}" if code.co_name == "<module>" else f"{module}.{code.co_qualname}")

    def _c_call(self, frame, fn) -> None:
        """A builtin is called from the Python frame ``frame`` (profile hook)."""
        module = getattr(fn, "__module__", None)
        if not module:
            owner = getattr(fn, "__self__", None)
            if owner is None:
                return
            module = (
                types.ModuleType.__getattribute__(owner, "__dict__").get("__name__")
                if isinstance(owner, types.ModuleType)
                else type(owner).__module__
            )
        if not isinstance(module, str):
            return
        top = module.partition(".")[0]
        if top not in self._roots:
            return
        name = getattr(fn, "__name__", "")
        if self.python_names and any(part in name for part in self.python_names):
            self.note(_display(fn))
        if (
            self._libs_on
            and top in self.libraries
            and self._owner(frame.f_code.co_filename) not in self._roots
            and self._actor(frame) == LEARNER
        ):
            self.note(f"{module}.{getattr(fn, '__qualname__', name)}")

    def _check_frame(self, frame) -> None:
        """A learner's frame holds or reads the library's objects (trace hook)."""
        code = frame.f_code
        g, b = frame.f_globals, frame.f_builtins
        for name in code.co_names:
            value = g.get(name, _MISSING)
            if value is _MISSING:
                value = b.get(name, _MISSING)
            if value is not _MISSING:
                what = self._library_object(value)
                if what:
                    self.note(f"{what} (used by {code.co_name})")
                    return
        for value in frame.f_locals.values():
            what = self._library_object(value)
            if what:
                self.note(f"{what} (used by {code.co_name})")
                return

    def _fetched(self, module, name: str, frame) -> None:
        """``module.name`` was read by the code of ``frame`` (a library module's attribute hook)."""
        owner = self._owner(frame.f_code.co_filename)
        if owner is not LEARNER and owner is not TRANSPARENT:
            return
        if owner is TRANSPARENT and (name.startswith("__") or self._actor(frame) != LEARNER):
            return  # the import system's reads (__spec__, __path__) for the learner's import
        entry = self._swapped.get(id(module))
        if entry is None:
            return
        if name in _IMPORT_READS:
            return  # what an import statement reads (the module is used once its contents are)
        if name in self.names or self._libs_on:
            self.note(f"{entry[1]}.{name}")


_MISSING = object()
_OFF = ", which switches off the grader's watch"
_PROBE = "grader.inside.watch probe"  # a RecordFunction event the watch itself records at report time
_IMPORT_READS = {"__spec__", "__path__", "__name__", "__file__", "__loader__", "__package__", "__class__"}
_DESCRIPTORS = (
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
    types.ClassMethodDescriptorType,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
)


def _defined_in(value) -> str | None:
    """The module a function, type or descriptor comes from (None for anything else)."""
    if isinstance(value, (type, types.FunctionType)):
        module = getattr(value, "__module__", None)
    elif isinstance(value, types.BuiltinFunctionType):
        module = getattr(value, "__module__", None)
        owner = getattr(value, "__self__", None)
        if not module and isinstance(owner, types.ModuleType):
            module = types.ModuleType.__getattribute__(owner, "__dict__").get("__name__")
        elif not module and owner is not None:
            module = type(owner).__module__
    elif isinstance(value, _DESCRIPTORS):
        module = getattr(getattr(value, "__objclass__", None), "__module__", None)
    elif isinstance(value, types.MethodWrapperType):
        module = type(value.__self__).__module__
    else:
        return None
    return module if isinstance(module, str) else None


def _package_root(name: str) -> str | None:
    module = sys.modules.get(name)
    try:
        if module is not None and getattr(module, "__file__", None):
            return os.path.dirname(os.path.abspath(module.__file__)) + os.sep
        spec = importlib.util.find_spec(name)  # found, not imported
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.abspath(list(spec.submodule_search_locations)[0]) + os.sep


# ------------------------------------------------------------------ hooks (module level: one watch per process)
def _profile(frame, event, arg):
    watch = _ACTIVE
    if watch is None or watch.phase is None:
        return
    try:
        if event == "call":
            watch._call(frame)
        elif event == "c_call":
            watch._c_call(frame, arg)
    except Exception:  # noqa: BLE001 - a hook that raises would raise in the learner's code
        pass


def _trace(frame, event, arg):
    watch = _ACTIVE
    if watch is None or not watch._libs_on:
        return None
    try:
        if watch._owner(frame.f_code.co_filename) is LEARNER or (
            frame.f_code.co_filename.startswith("<")
            and not frame.f_code.co_filename.startswith("<frozen")
            and watch._actor(frame.f_back) == LEARNER
        ):  # code the learner exec'd
            watch._check_frame(frame)
            return _trace_frame
    except Exception:  # noqa: BLE001
        pass
    return None


def _trace_frame(frame, event, arg):
    watch = _ACTIVE
    if watch is not None and watch._libs_on:
        try:
            if event == "line":
                watch._check_frame(frame)
            elif event == "return" and arg is not None:
                what = watch._library_object(arg)
                if what:
                    watch.note(f"{what} (returned by {frame.f_code.co_name})")
        except Exception:  # noqa: BLE001
            pass
    return _trace_frame


def _learner_thread(function, args, kwargs):
    """The first frame of every thread started after :func:`install`: its hooks, then its code."""
    watch = _ACTIVE
    if watch is not None and watch.hooks:
        _SET_PROFILE(_profile)
        if watch.libraries:
            _SET_TRACE(_trace)
    return function(*args, **kwargs)


_BOUNDARIES.add(_learner_thread.__code__)


def _start_learner_thread(function, args=(), kwargs=None, /):
    return _START_THREAD(_learner_thread, (function, tuple(args), dict(kwargs or {})))


def _audit(event: str, args) -> None:
    """Process-wide (not thread-local): the learner's code starting another program, whose calls
    no watch of this process sees."""
    if event in _PROGRAM_STARTS:
        _program_started(event, sys._getframe(1))


def _program_started(event: str, frame) -> None:
    watch = _ACTIVE
    if watch is not None and watch.hooks:
        try:
            if watch._actor(frame) == LEARNER:
                watch.note(f"another program ({event}), where the grader cannot watch what is called")
        except Exception:  # noqa: BLE001
            pass


_PROGRAM_STARTS = {
    "subprocess.Popen",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.system",
    "os.startfile",
    "pty.spawn",
}


def _guarded_fork_exec(original):
    """``_posixsubprocess.fork_exec`` (subprocess, multiprocessing's spawn and forkserver) as the
    learner sees it: unlike os.fork, what it starts is a new program, outside this watch."""

    def fork_exec(*args, **kwargs):
        _program_started("fork_exec", sys._getframe(1))
        return original(*args, **kwargs)

    return fork_exec


def _guarded(original, what: str):
    """``sys.setprofile`` / ``sys.settrace`` (and torch's switches) as the learner sees them: a
    call from its code is reported."""

    def guarded(*args):
        watch = _ACTIVE
        if watch is not None and watch._actor(sys._getframe(1)) == LEARNER:
            watch.note(f"{what}{_OFF}")
        return original(*args)

    guarded.__name__ = getattr(original, "__name__", what)
    guarded.__doc__ = getattr(original, "__doc__", None)
    return guarded


_CLASSES: dict[type, type] = {}


def _watched_class(base: type) -> type:
    """A subclass of a module's class that reports which code reads the module's attributes."""
    if getattr(base, "_grader_watched", False):
        return base
    cls = _CLASSES.get(base)
    if cls is None:

        def __getattribute__(self, name, _get=base.__getattribute__):
            value = _get(self, name)
            watch = _ACTIVE
            if watch is not None:
                try:
                    watch._fetched(self, name, sys._getframe(1))
                except Exception:  # noqa: BLE001
                    pass
            return value

        cls = _CLASSES[base] = type(
            base.__name__,
            (base,),
            {
                "__getattribute__": __getattribute__,
                "__module__": base.__module__,
                "__qualname__": base.__qualname__,
                "_grader_watched": True,
            },
        )
    return cls


# ------------------------------------------------------------------ install
def install(rule: dict | None, learner_file: str | None = None, learner_module: str | None = None) -> Watch:
    """Install the rule's watches in this (the learner's) process; returns the log."""
    global _ACTIVE
    watch = Watch(rule, os.path.dirname(learner_file) if learner_file else None, learner_module)
    if not rule:
        return watch
    _ACTIVE = watch
    # A rule is always on: what it names is imported now, before the learner's module (a library
    # the rule forbids as a whole needs no import: it is watched once loaded, see Watch._sync).
    needs = {d.partition(".")[0] for d in rule.get("callables", ())}
    if (
        rule.get("torch_functions")
        or rule.get("aten_ops")
        or rule.get("python_names")
        or rule.get("optimizer_step")
        or rule.get("forward_via_call")
    ):
        needs.add("torch")
    for top in sorted(needs - set(watch.libraries)):
        try:
            importlib.import_module(top)
        except ImportError:
            pass
    for dotted in rule.get("callables", ()):
        module = dotted.rpartition(".")[0]
        if module.partition(".")[0] in needs - set(watch.libraries):
            try:
                importlib.import_module(module)
            except ImportError:
                pass  # a class path (torch.nn.MultiheadAttention.forward): its package is imported
    watch._sync()
    if "torch" in watch._roots and "torch" in sys.modules:  # torch's own frames known as torch's
        _guard_torch_switches(sys.modules["torch"])
    if watch.hooks:
        _thread.start_new_thread = _thread.start_new = _start_learner_thread
        threading._start_new_thread = _start_learner_thread
        sys.setprofile = _guarded(_SET_PROFILE, "sys.setprofile")
        sys.settrace = _guarded(_SET_TRACE, "sys.settrace")
        # Other processes: a forked child keeps this watch and reports through a datagram socket
        # (not a pipe: the learner's answer pipe stays the only one it can write); a new program
        # (exec) is reported as such (sys.addaudithook is process-wide, never removed).
        import socket

        read, write = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        read.setblocking(False)
        write.setblocking(False)
        watch._channel = (read, write, os.fstat(write.fileno()).st_ino)
        os.register_at_fork(after_in_child=watch._forked)
        sys.addaudithook(_audit)
        try:
            import _posixsubprocess

            _posixsubprocess.fork_exec = _guarded_fork_exec(_posixsubprocess.fork_exec)
        except (ImportError, AttributeError):
            pass
    if rule.get("optimizer_step"):
        from torch.optim.optimizer import register_optimizer_step_pre_hook

        register_optimizer_step_pre_hook(lambda opt, args, kwargs: watch.note(f"{type(opt).__name__}.step()"))
    for target in rule.get("forward_via_call", []):
        _guard_forward(target, watch)
    return watch


def _guard_torch_switches(torch) -> None:
    """What turns torch's modes or its operator recording off, as the learner sees it: a call
    from its code is reported (:func:`_guarded`; torch's own calls are not)."""
    for owner, name in (
        ("_autograd", "_enable_record_function"),
        ("", "_DisableTorchDispatch"),
        ("", "DisableTorchFunction"),
    ):
        module = getattr(torch._C, owner) if owner else torch._C
        original = getattr(module, name, None)
        if original is not None:
            setattr(module, name, _guarded(original, ".".join(filter(None, ("torch._C", owner, name)))))


def boundary(fn) -> None:
    """``fn`` (the worker's call of the learner's function) calls the learner's code: what it
    calls directly is the learner's doing (``broadcast_shape = np.broadcast_shapes``)."""
    _BOUNDARIES.add(fn.__code__)


def _guard_forward(target: str, watch: Watch) -> None:
    """``model.forward(x)`` skips the module's hooks; only ``model(x)`` (``Module.__call__``) runs
    them. Global module pre/post hooks mark which instances are inside ``__call__``; the class's
    ``forward`` notes a call that arrives outside one."""
    module_name, _, cls_name = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), cls_name)
        from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
    except (ImportError, AttributeError):
        return
    inside: list = []

    def pre(mod, args):
        if isinstance(mod, cls):
            inside.append(mod)

    def post(mod, args, out):
        if isinstance(mod, cls) and inside and inside[-1] is mod:
            inside.pop()

    register_module_forward_pre_hook(pre)
    register_module_forward_hook(post)
    original = cls.forward

    def forward(self, *args, **kwargs):
        if not inside or inside[-1] is not self:
            watch.note(f"{cls_name}.forward() called directly (model.forward(x) instead of model(x))")
        return original(self, *args, **kwargs)

    cls.forward = forward


def proof(nonce: str) -> str:
    """What a report's log ends with for ``nonce``: no name a watch notes starts with NUL."""
    return "\0" + nonce


def install_from_env(learner_file: str | None = None, learner_module: str | None = None) -> Watch:
    text = os.environ.pop(ENV, "")
    return install(json.loads(text) if text else None, learner_file, learner_module)


def _display(func) -> str:
    module = getattr(func, "__module__", "") or ""
    name = getattr(func, "__name__", str(func))
    if module.startswith("torch._C"):
        module = "torch.nn.functional" if "scaled_dot_product" in name else module
    return f"{module}.{name}" if module else name


def _wrap_callable(dotted: str, watch: Watch) -> bool:
    """Replace the function at ``dotted`` (a module attribute, or a class's method) by one that
    logs each call, from any thread; False while its module is not loaded. Types are left as
    they are: a type replaced by a function breaks whoever checks it is a type."""
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        owner = sys.modules.get(".".join(parts[:i]))
        if owner is not None:
            break
    else:
        return False
    try:
        for part in parts[i:-1]:
            owner = getattr(owner, part)
        original = getattr(owner, parts[-1])
    except AttributeError:
        return True  # not in this version: nothing to wrap
    if isinstance(original, type) or getattr(original, "__grader_watched__", False) or not callable(original):
        return True
    local = watch._local

    def watched(*args, **kwargs):
        depth = getattr(local, "depth", 0)
        # The outermost call only (numpy.broadcast_shapes calls numpy.broadcast); where the rule
        # forbids the whole library, the learner's own calls only (not numpy's calls of itself).
        if depth == 0 and (not watch.libraries or watch._actor(sys._getframe(1)) == LEARNER):
            watch.note(dotted)
        local.depth = depth + 1
        try:
            return original(*args, **kwargs)
        finally:
            local.depth = depth

    watched.__grader_watched__ = True
    watched.__wrapped__ = original
    for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(watched, attr, getattr(original, attr))
        except (AttributeError, TypeError):
            pass
    try:
        setattr(owner, parts[-1], watched)
    except (AttributeError, TypeError):
        pass
    return True
