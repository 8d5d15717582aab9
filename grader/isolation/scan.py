"""Check side: the learner's source scanned for what its exercise forbids, before its code runs.

The other half of a "do not call X" rule (:mod:`grader.course.do_not_call`): the learner's
process is watched from inside (:mod:`grader.inside.watch`), and this reads the learner's file,
in the check's process: a reference to a forbidden name (attribute, name, import, or a string
built of constants for ``getattr``) outside ``if __name__ == "__main__":`` is reported with its
line.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

# What switches a watch off (or reaches around it): never part of an answer these rules apply to.
EVASIONS = {
    "DisableTorchFunction",
    "DisableTorchFunctionSubclass",
    "_DisableTorchDispatch",
    "_disable_current_modes",
    "_pop_mode",
    "_pop_torch_function_stack",
    "_disable_profiler",
    "_enable_record_function",
    "setprofile",
    "settrace",
    "__getattribute__",
    "get_referents",
    "get_objects",
}
EVASION_MODULES: set[str] = set()  # whole libraries that would (ctypes is left to crash as it may)
GRADER_INTERNALS = ("grader.inside", "grader.isolation")  # the watch's own state, the walls around it
_IMPORTERS = {"import_module", "__import__", "find_spec", "spec_from_file_location", "load_module"}
_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")


def scan_source(path: str | Path, rule: dict | None) -> list[tuple[int, str]]:
    """``(line, name)`` of every reference to a forbidden name in the learner's source, outside
    ``if __name__ == "__main__":`` blocks (a self-test there is fine): attributes (``F.x``), imports
    (``from m import x``), strings equal to the name or to a dotted path through it, also when
    built of constants (``getattr(F, "x_" + "y")``, ``"".join([...])``), and imports by a computed
    name where a rule forbids modules. Bare names are the learner's own variables unless imported,
    and the import is reported. Comments and docstrings are not references. Whatever switches the
    watch off (:data:`EVASIONS`, :data:`GRADER_INTERNALS`) is reported under any rule."""
    if not rule:
        return []
    names = set(rule.get("source_names", []))
    modules = set(rule.get("source_modules", []))
    no_args = set(rule.get("source_calls_without_args", []))
    try:
        tree = ast.parse(Path(path).read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return []  # the import reports a syntax error better
    skip = {id(n) for top in tree.body if _is_main_guard(top) for n in ast.walk(top)}
    skip |= {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings, bare strings
    consts = _constant_names(tree)
    looks_up = _looks_up_names(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        hit = None
        if isinstance(node, ast.Attribute) and node.attr in names:
            hit = node.attr
        elif isinstance(node, ast.Attribute) and node.attr in EVASIONS:
            hit = f"{node.attr} (switches off the grader's watch)"
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            hit = next((a.name.rpartition(".")[2] for a in node.names if a.name.rpartition(".")[2] in names), None)
            if hit is None and isinstance(node, ast.ImportFrom) and (node.module or "").rpartition(".")[2] in names:
                hit = node.module.rpartition(".")[2]
            if hit is None:
                full = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [f"{node.module or ''}.{a.name}" for a in node.names]
                )
                evading = [
                    m
                    for m in full
                    if m.split(".")[0] in EVASION_MODULES
                    or m.startswith(GRADER_INTERNALS)
                    or m.rpartition(".")[2] in EVASIONS
                ]
                if evading:
                    hit = f"import {evading[0]} (reaches around the grader's watch)"
        elif isinstance(node, (ast.Constant, ast.BinOp, ast.JoinedStr, ast.Call, ast.Subscript)):
            text = _fold(node, consts)
            if text is not None:
                if text in names:
                    hit = text
                elif text in EVASIONS:
                    hit = f"{text} (switches off the grader's watch)"
                elif text and _PATH.fullmatch(text) and (set(text.split(".")) & (names | EVASIONS)):
                    hit = next(p for p in text.split(".") if p in names | EVASIONS)
        if not hit and looks_up:
            hit = _part_of_a_name(node, consts, names | EVASIONS)
        if not hit and isinstance(node, ast.Import):
            hit = next((f"import {a.name}" for a in node.names if a.name.split(".")[0] in modules), None)
        if not hit and isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in modules:
            hit = f"from {node.module} import ..."
        if not hit and modules and isinstance(node, ast.Call) and _callee_name(node) in _IMPORTERS:
            target = _fold(node.args[0], consts) if node.args else None
            if target is None:
                hit = f"{_callee_name(node)}(...) of a computed name"
            elif target.split(".")[0] in modules:
                hit = f"import {target}"
        if (
            not hit
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in no_args
            and not node.args
            and not node.keywords
        ):
            hit = f".{node.func.attr}()"
        if hit:
            found.append((node.lineno, hit))
    return sorted(set(found))


_MIN_PART = 5  # a shorter piece of a name ("dot", "_op") is too common to tell


def _looks_up_names(tree) -> bool:
    """The source lists a namespace's names (``dir(m)``, ``vars(m)``, ``m.__dict__``)."""
    return any(
        (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("dir", "vars"))
        or (isinstance(n, ast.Attribute) and n.attr == "__dict__")
        for n in ast.walk(tree)
    )


def _part_of_a_name(node, consts: dict, targets: set[str]) -> str | None:
    """In a source that lists names: a name picked by a piece of it, ``n.startswith(piece)``,
    ``n.endswith(piece)`` or ``piece in n`` (a forbidden name found at run time)."""
    test = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and len(node.args) == 1:
        test = {"startswith": str.startswith, "endswith": str.endswith}.get(node.func.attr)
        piece = _fold(node.args[0], consts)
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In):
        test, piece = (lambda name, part: part in name), _fold(node.left, consts)
    if test is None or piece is None or len(piece) < _MIN_PART:
        return None
    hit = next((t for t in sorted(targets) if test(t, piece)), None)
    return f"{hit} (found by a piece of its name, {piece!r})" if hit else None


def _callee_name(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _constant_names(tree) -> dict[str, str]:
    """Names assigned exactly once, to a string built of constants (``_NAME = "a" + "b"``)."""
    assigned: dict[str, list] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.For, ast.NamedExpr)):
            t = node.target
            if isinstance(t, ast.Name):
                assigned.setdefault(t.id, []).extend([None, None])
    consts: dict[str, str] = {}
    for _ in range(3):  # names built from names
        for name, values in assigned.items():
            if len(values) == 1 and name not in consts:
                text = _fold(values[0], consts)
                if text is not None:
                    consts[name] = text
    return consts


_STR_METHODS = {
    "lower",
    "upper",
    "strip",
    "lstrip",
    "rstrip",
    "replace",
    "format",
    "removeprefix",
    "removesuffix",
    "casefold",
    "title",
    "capitalize",
    "swapcase",
}


def _fold(node, consts: dict, depth: int = 0) -> str | None:
    """The string an expression of constants evaluates to, else None."""
    if depth > 30 or node is None:
        return None
    fold = functools.partial(_fold, consts=consts, depth=depth + 1)
    try:
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            return consts.get(node.id)
        if isinstance(node, ast.BinOp):
            left = fold(node.left)
            if isinstance(node.op, ast.Add):
                right = fold(node.right)
                return left + right if left is not None and right is not None else None
            if (
                isinstance(node.op, ast.Mult)
                and left is not None
                and isinstance(node.right, ast.Constant)
                and isinstance(node.right.value, int)
                and 0 <= node.right.value <= 8
            ):
                return left * node.right.value
            if isinstance(node.op, ast.Mod) and left is not None:
                items = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
                values = [fold(e) for e in items]
                return left % tuple(values) if None not in values else None
            return None
        if isinstance(node, ast.JoinedStr):
            out = []
            for part in node.values:
                if isinstance(part, ast.Constant):
                    out.append(str(part.value))
                elif isinstance(part, ast.FormattedValue) and part.format_spec is None and part.conversion == -1:
                    value = fold(part.value)
                    if value is None:
                        return None
                    out.append(value)
                else:
                    return None
            return "".join(out)
        if isinstance(node, ast.Subscript):
            value = fold(node.value)
            s = node.slice
            if value is None:
                return None
            if isinstance(s, ast.Slice):
                bounds = []
                for b in (s.lower, s.upper, s.step):
                    if b is None:
                        bounds.append(None)
                    elif isinstance(b, ast.Constant) and isinstance(b.value, int):
                        bounds.append(b.value)
                    elif (
                        isinstance(b, ast.UnaryOp)
                        and isinstance(b.op, ast.USub)
                        and isinstance(b.operand, ast.Constant)
                    ):
                        bounds.append(-b.operand.value)
                    else:
                        return None
                return value[slice(*bounds)]
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords:
            base = fold(node.func.value)
            if base is None:
                return None
            if node.func.attr == "join" and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple)):
                parts = [fold(e) for e in node.args[0].elts]
                return base.join(parts) if None not in parts else None
            if node.func.attr in _STR_METHODS:
                args = [fold(a) for a in node.args]
                if None in args:
                    return None
                result = getattr(str, node.func.attr)(base, *args)
                return result if isinstance(result, str) and len(result) < 10_000 else None
    except (TypeError, ValueError, IndexError, KeyError, OverflowError):
        return None
    return None


def _is_main_guard(node) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    parts = [node.test.left, *node.test.comparators]
    return any(isinstance(p, ast.Name) and p.id == "__name__" for p in parts) and any(
        isinstance(p, ast.Constant) and p.value == "__main__" for p in parts
    )
