"""What an exercise forbids its learner to call, watched in the learner's process and in its source.

A stub may say "do not call X" (P1: ``F.scaled_dot_product_attention``; A3: NumPy's broadcasting;
A4: ``optimizer.step()``). A rule is plain data (``grader/checks/support/forbidden.py`` holds
them, one per exercise)::

    {"exercise": "P1", "says": "do not call that function ... yourself",
     "torch_functions": ["scaled_dot_product_attention"],   # __torch_function__ names (TorchFunctionMode)
     "aten_ops": ["_scaled_dot_product"],                     # aten op name parts (TorchDispatchMode)
     "callables": ["numpy.broadcast_shapes"],                 # module attributes, wrapped before import
     "optimizer_step": False,                                 # a global optimizer step pre-hook
     "forward_via_call": ["grader.given.char_model:GPT"],     # model.forward(x) instead of model(x)
     "source_names": ["scaled_dot_product_attention"],        # names the source scan looks for
     "source_modules": ["numpy"],                             # modules it may not import
     "source_calls_without_args": ["read"]}                   # f.read(): the whole file at once

Two independent sides:

* :func:`install` runs in the learner's process (:mod:`grader.isolation.worker`, from the rule in
  the environment, before the learner's module is imported, so ``from numpy import
  broadcast_shapes`` gets the wrapper). Every answer frame then carries the forbidden calls made
  while answering; :class:`grader.isolation.learner.Learner` turns them into a failure.
* :func:`scan_source` runs in the check's process on the learner's file: a reference to a
  forbidden name (attribute, name, import, or the name as a string for ``getattr``) outside
  ``if __name__ == "__main__":`` is reported with its line, before the learner's code runs.

Either one alone fails the key points. A learner who sets out to evade both (``ctypes``, disabling
torch's function modes) is cheating in a way the course does not grade; the checks still compare
every answer with ground truth computed outside the learner's process.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
from contextlib import ExitStack, contextmanager
from pathlib import Path

ENV = "GRADER_FORBIDDEN"


class Watch:
    """The learner-side log: ``hits`` are display names of forbidden calls, oldest first."""

    def __init__(self, rule: dict | None):
        self.rule = rule or {}
        self.hits: list[str] = []
        self.depth = 0  # inside a watched callable
        self._modes: list = []

    def note(self, name: str) -> None:
        if name not in self.hits:
            self.hits.append(name)

    def take(self) -> list[str]:
        hits, self.hits = self.hits, []
        return hits

    @contextmanager
    def active(self):
        """Torch's function/dispatch modes stay on only while the learner's code answers a call."""
        if not self._modes:
            yield
            return
        with ExitStack() as stack:
            for make in self._modes:
                stack.enter_context(make())
            yield


def install(rule: dict | None) -> Watch:
    """Install the rule's watches in this (the learner's) process; returns the log."""
    watch = Watch(rule)
    if not rule:
        return watch
    for dotted in rule.get("callables", []):
        _wrap_callable(dotted, watch)
    import sys

    names = set(rule.get("torch_functions", []))
    aten = tuple(rule.get("aten_ops", []))
    if (names or aten) and "torch" in sys.modules:  # (not loaded: the learner's code cannot call it
        # without importing torch, which only a rule that forbids it would flag, in the source)
        import torch  # noqa: F401 - only exercises whose rule names torch functions
        from torch.overrides import TorchFunctionMode
        from torch.utils._python_dispatch import TorchDispatchMode

        if names:
            class _FunctionLog(TorchFunctionMode):
                def __torch_function__(self, func, types, args=(), kwargs=None):
                    name = getattr(func, "__name__", "")
                    if name in names:
                        watch.note(_display(func))
                    return func(*args, **(kwargs or {}))

            watch._modes.append(_FunctionLog)
        if aten:
            class _DispatchLog(TorchDispatchMode):
                def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                    name = func.name()
                    if any(part in name for part in aten):
                        watch.note(name)
                    return func(*args, **(kwargs or {}))

            watch._modes.append(_DispatchLog)
    if rule.get("optimizer_step"):
        from torch.optim.optimizer import register_optimizer_step_pre_hook

        register_optimizer_step_pre_hook(lambda opt, args, kwargs: watch.note(f"{type(opt).__name__}.step()"))
    for target in rule.get("forward_via_call", []):
        _guard_forward(target, watch)
    return watch


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


def install_from_env() -> Watch:
    text = os.environ.pop(ENV, "")
    return install(json.loads(text) if text else None)


def _display(func) -> str:
    module = getattr(func, "__module__", "") or ""
    name = getattr(func, "__name__", str(func))
    if module.startswith("torch._C"):
        module = "torch.nn.functional" if "scaled_dot_product" in name else module
    return f"{module}.{name}" if module else name


def _wrap_callable(dotted: str, watch: Watch) -> None:
    import sys

    module_name, _, attr = dotted.rpartition(".")
    top = module_name.partition(".")[0]
    if top not in sys.modules and top != "numpy":
        return  # not loaded by the zygote: importing it only to watch it costs seconds (the scan still sees it)
    try:
        module = importlib.import_module(module_name)
        original = getattr(module, attr)
    except (ImportError, AttributeError):
        return
    if getattr(original, "__grader_watched__", False):
        return

    def watched(*args, **kwargs):
        if watch.depth == 0:  # the outermost call only (numpy.broadcast_shapes calls numpy.broadcast)
            watch.note(dotted)
        watch.depth += 1
        try:
            return original(*args, **kwargs)
        finally:
            watch.depth -= 1

    watched.__grader_watched__ = True
    watched.__name__ = getattr(original, "__name__", attr)
    watched.__doc__ = getattr(original, "__doc__", None)
    setattr(module, attr, watched)


# ------------------------------------------------------------------ the check's side
def scan_source(path: str | Path, rule: dict | None) -> list[tuple[int, str]]:
    """``(line, name)`` of every reference to a forbidden name in the learner's source, outside
    ``if __name__ == "__main__":`` blocks (a self-test there is fine): attributes (``F.x``), imports
    (``from m import x``) and strings equal to the name (``getattr(F, "x")``). Bare names are the
    learner's own variables unless imported, and the import is reported. Comments and docstrings
    are not references."""
    names = set((rule or {}).get("source_names", []))
    modules = set((rule or {}).get("source_modules", []))
    no_args = set((rule or {}).get("source_calls_without_args", []))
    if not (names or modules or no_args):
        return []
    try:
        tree = ast.parse(Path(path).read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return []  # the import reports a syntax error better
    skip = {id(n) for top in tree.body if _is_main_guard(top) for n in ast.walk(top)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        hit = None
        if isinstance(node, ast.Attribute) and node.attr in names:
            hit = node.attr
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            hit = next((a.name.rpartition(".")[2] for a in node.names if a.name.rpartition(".")[2] in names), None)
            if hit is None and isinstance(node, ast.ImportFrom) and (node.module or "").rpartition(".")[2] in names:
                hit = node.module.rpartition(".")[2]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            hit = node.value
        if not hit and isinstance(node, ast.Import):
            hit = next((f"import {a.name}" for a in node.names if a.name.split(".")[0] in modules), None)
        if not hit and isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in modules:
            hit = f"from {node.module} import ..."
        if (not hit and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in no_args and not node.args and not node.keywords):
            hit = f".{node.func.attr}()"
        if hit:
            found.append((node.lineno, hit))
    return sorted(set(found))


def _is_main_guard(node) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    parts = [node.test.left, *node.test.comparators]
    return any(isinstance(p, ast.Name) and p.id == "__name__" for p in parts) and \
        any(isinstance(p, ast.Constant) and p.value == "__main__" for p in parts)
