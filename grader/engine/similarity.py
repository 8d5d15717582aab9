"""How much of an answer is someone else's code: the reference answer's, or a classmate's.

An exact copy (the same syntax tree, comments and layout aside) is decided in
:func:`grader.engine.runner._is_the_reference`. This module finds the copies that are not exact,
the way MOSS-style checks do: each module is **normalised** (docstrings, ``pass`` and dead
statements dropped; imports sorted and their aliases replaced by what they import; one spelling
for each operation (``x += e`` and ``x = x + e``, ``a < b`` and ``b > a``, an ``if``/``else`` and
its negated test with the branches swapped); inside a function, values named rather than
variables (:class:`_Values`: binding a new name and rebinding an old one read alike, copies and
helpers read once put where they are read, ``range(len(s))`` loops as ``enumerate``); the names
a module binds itself, other than the exercise's contract names, renamed to canonical ones;
constants replaced by their type; independent statements and runs of early exits put in one
canonical order; top-level definitions sorted), read as a stream of syntax-tree tokens, and its
k-grams are **winnowed** into fingerprints (Schleimer, Wilkerson, Aiken, "Winnowing: local
algorithms for document fingerprinting", SIGMOD 2003: the smallest hash of each window, so any
match of at least ``WINDOW + K - 1`` tokens shares a fingerprint).

Fingerprints of the question's **skeleton** are weighed down (:data:`SKELETON_WEIGHT`): those of
the stub the learner starts from, and those the reference shares with every one of its mutants
(``solutions/mutants/<module>/``: different wrong answers to the same question, so what they all
have in common is what any answer has). Two honest answers of a tiny exercise then do not
look like copies because they share the signature and the obvious return.

A question can leave so little open that every honest answer normalises to the reference (X2's
four lines: honest answers scored up to 100%). Where the reference has fewer than :data:`MIN_OPEN`
fingerprints of its own beyond the skeleton (:attr:`Question.tight`), a match must also hold on
the module **as written** (names, constants and messages kept): a copy, reordered or with a line
added, is still seen; a renamed copy of four lines cannot be told from an honest answer, and is not
flagged.

:func:`compare` gives a :class:`Match`: a score in [0, 1] (the weighted share of the smaller
module's fingerprints found in the other) and the lines of each side that match. A score of
:data:`THRESHOLD` or more is a *near copy*. Courses decide what follows: self-study reports it
beside the verdict and keeps the credit (docs/security.md), the classroom and ``grader batch``
report every answer's best match among the reference and the classmates to the instructor
(:func:`class_matches`); between classmates the text as written is compared too
(:func:`raw_fingerprints`: identical files are copies whatever their code).

What the comparison cannot read, it says: an answer that builds the code it runs from data (exec of
a value :func:`unfolded` does not fold, a marshal or pickle blob, an import by a built name, ...) is
:func:`opaque`, reported beside its score with the lines; its data that is code (docstring, comment
lines, strings, a marshalled code object) is compared too.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import hashlib
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

K = 12  # tokens per k-gram: about one statement
WINDOW = 4  # winnowing window: a match of K + WINDOW - 1 = 15 tokens or more is always seen
SKELETON_WEIGHT = 0.1  # what one fingerprint of the question's skeleton weighs, against 1
MIN_OWN = 6  # fewer fingerprints beyond the skeleton than this: too little code to call a copy
# A reference with fewer of its own fingerprints beyond the skeleton than this answers a question
# that leaves too little open: every honest answer normalises alike (X2's four lines scored 92%).
MIN_OPEN = 20
THRESHOLD = 0.6  # a near copy from this score on (tests/test_similarity.py measures both sides of it)
# The learner's file is read in the grader's own process: bounded work whatever it holds. The
# largest reference answer has under 700 syntax nodes; a run of simple statements longer than
# RUN_CAP is put in order RUN_CAP at a time.
MAX_NODES = 100_000
RUN_CAP = 64
INLINE_NODES = 40  # a value read once is put where it is read if it is at most this large


class TooLarge(Exception):
    """More syntax nodes than :data:`MAX_NODES`: not compared (and said so, never a silent 0)."""


@dataclass(frozen=True)
class Fingerprints:
    """A module's winnowed fingerprints: hash -> the source lines its k-gram spans."""

    lines: dict[int, frozenset[int]] = field(default_factory=dict)

    @functools.cached_property
    def hashes(self) -> frozenset[int]:
        return frozenset(self.lines)


@dataclass(frozen=True)
class Match:
    """How much of ``against`` one answer shares: score, and the matching lines on each side."""

    against: str  # "reference", or the classmate's name
    score: float
    lines: tuple[int, ...] = ()  # the answer's own lines that match
    their_lines: tuple[int, ...] = ()
    note: str = ""  # why it was not compared
    # Where the answer builds the code it runs from data (:func:`opaque`): the score cannot say
    # how much of that code is someone else's. Reported beside it, never a silent 0.
    opaque: tuple[tuple[int, str], ...] = ()

    def to_dict(self) -> dict:
        return {
            "against": self.against,
            "score": round(self.score, 3),
            "lines": spans(self.lines),
            "their_lines": spans(self.their_lines),
            **({"note": self.note} if self.note else {}),
            **({"opaque": [list(o) for o in self.opaque]} if self.opaque else {}),
        }


def spans(lines) -> str:
    """``(3, 4, 5, 9)`` -> ``"3-5, 9"``."""
    out: list[list[int]] = []
    for n in sorted(set(lines)):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in out)


# ---------------------------------------------------------------- normalising
def _is_bare_constant(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _constant_truth(test: ast.expr) -> bool | None:
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if (  # if __name__ == "__main__": never runs when graded
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    ):
        return False
    return None


def _names(node: ast.AST, ctx: type) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def _has_call(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(node))


def _live(body: list[ast.stmt]) -> list[ast.stmt]:
    """A block without what never runs or does nothing: bare constants (docstrings), ``pass``,
    what follows a return/raise/break/continue, the never-taken side of a constant ``if``."""
    out: list[ast.stmt] = []
    for stmt in body:
        if _is_bare_constant(stmt) or isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, (ast.If, ast.While)) and (truth := _constant_truth(stmt.test)) is not None:
            if isinstance(stmt, ast.If):
                out += _live(stmt.body if truth else stmt.orelse)
            elif truth:
                out.append(stmt)
            continue
        out.append(stmt)
        if isinstance(stmt, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
            break
    return out


def _drop_dead_stores(body: list[ast.stmt], scope: ast.AST, keep: set[str]) -> list[ast.stmt]:
    """Assignments of a value with no call to names nothing in ``scope`` reads (nor ``keep``)."""
    read = _names(scope, ast.Load) | keep
    out = []
    for stmt in body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if all(isinstance(t, ast.Name) and t.id not in read for t in targets) and (
                stmt.value is None or not _has_call(stmt.value)
            ):
                continue
        out.append(stmt)
    return out


def _reads_writes(stmt: ast.stmt) -> tuple[set[str], set[str]]:
    reads = _names(stmt, ast.Load)
    writes = _names(stmt, ast.Store) | _names(stmt, ast.Del)
    for node in ast.walk(stmt):  # x[i] = ..., x.a = ...: writes x
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                writes.add(base.id)
    for node in ast.walk(stmt):  # x.append(...): may change x
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
        ):
            writes.add(node.func.value.id)
    return reads, writes


_SIMPLE = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)


def _canonical_order(body: list[ast.stmt], params: dict[str, int]) -> list[ast.stmt]:
    """Each run of simple statements in one order whatever order independent ones were written
    in: repeatedly the smallest of those whose earlier conflicting statements are placed, by
    shape, then by the parameters (their positions: ``params``) it uses."""

    def key(stmt: ast.stmt):
        return _shape(stmt), [params.get(n.id, -1) for n in ast.walk(stmt) if isinstance(n, ast.Name)]

    out, run = [], []
    for stmt in [*body, None]:
        if isinstance(stmt, _SIMPLE) and len(run) < RUN_CAP:
            run.append(stmt)
            continue
        keys = [key(s) for s in run]
        effects = [_reads_writes(s) for s in run]
        after = {
            i: {j for j in range(i) if effects[i][0] & effects[j][1] or effects[i][1] & (effects[j][0] | effects[j][1])}
            for i in range(len(run))
        }
        placed: list[int] = []
        while len(placed) < len(run):
            ready = [i for i in range(len(run)) if i not in placed and after[i] <= set(placed)]
            placed.append(min(ready, key=keys.__getitem__))
        out += [run[i] for i in placed]
        run = []
        if isinstance(stmt, _SIMPLE):
            run.append(stmt)
        elif stmt is not None:
            out.append(stmt)
    return out


def _is_guard(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.If)
        and not stmt.orelse
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], (ast.Return, ast.Raise))
    )


def _guards_in_order(body: list[ast.stmt]) -> list[ast.stmt]:
    """Each run of early exits (``if test: return ...`` or ``raise ...``) in one order, by shape:
    which check comes first is the first thing a copier reorders."""
    out: list[ast.stmt] = []
    run: list[ast.stmt] = []
    for stmt in [*body, None]:
        if stmt is not None and _is_guard(stmt):
            run.append(stmt)
            continue
        out += sorted(run, key=_shape)
        run = []
        if stmt is not None:
            out.append(stmt)
    return out


def _shape(node: ast.AST) -> str:
    """A node's structure with every name and constant alike: an order that renaming cannot change."""
    return " ".join(type(n).__name__ for n in ast.walk(node) if not isinstance(n, ast.expr_context))


def _imports(module: ast.Module) -> dict[str, str]:
    """Each name an import binds -> the dotted name it stands for (``np`` -> ``numpy``)."""
    bound = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for a in node.names:
                bound[a.asname or a.name.partition(".")[0]] = a.name if a.asname else a.name.partition(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            for a in node.names:
                bound[a.asname or a.name] = f"{base}.{a.name}"
    return bound


class _Normaliser(ast.NodeTransformer):
    """Blocks cleaned (see :func:`_live`; a function's dead stores dropped), or, once the names are
    values (:class:`_Values`), put in order (:func:`_canonical_order`)."""

    def __init__(self, order: bool):
        self.order = order
        self.params: list[dict[str, int]] = [{}]

    def generic_visit(self, node):
        function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        if function:
            self.params.append({a.arg: i for i, a in enumerate(ast.walk(node.args)) if isinstance(a, ast.arg)})
        super().generic_visit(node)
        for name, block in _blocks(node):
            if self.order:
                block = _guards_in_order(_canonical_order(block, self.params[-1]))
            else:
                block = _live(block)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and name == "body":
                    block = _drop_dead_stores(block, node, set())
            setattr(node, name, block)
        if function:
            self.params.pop()
        return node


# ---------------------------------------------------------------- values, not names
# Every binding of a function's own name is a new definition (static single assignment): a use
# refers to the definition that reaches it, so rebinding a parameter and binding a new name read
# alike; where branches or a loop join, differing definitions meet in a new one (a "phi"). On
# those values, renaming-proof rewrites: a copy ``x = y`` and a helper used once are put in their
# uses, ``for i in range(len(s))`` reading ``s[i]`` is ``enumerate(s)``.
_FLIP = {ast.Gt: ast.Lt, ast.GtE: ast.LtE}
_INVERSE = {ast.Eq: ast.NotEq, ast.In: ast.NotIn, ast.Is: ast.IsNot}
_INVERSE |= {v: k for k, v in _INVERSE.items()}
_POSITIVE = (ast.Eq, ast.In, ast.Is, ast.Lt)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_ENDS = (ast.Return, ast.Raise, ast.Break, ast.Continue)


def _negate(test: ast.expr) -> ast.expr:
    """``not test``, simplified: comparisons inverted, De Morgan through ``and``/``or``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = type(test.ops[0])
        if op in _INVERSE:
            return ast.Compare(test.left, [_INVERSE[op]()], test.comparators)
        if op in (ast.Lt, ast.LtE):  # not a < b: b <= a
            return ast.Compare(test.comparators[0], [ast.LtE() if op is ast.Lt else ast.Lt()], [test.left])
    if isinstance(test, ast.BoolOp):
        return ast.BoolOp(ast.Or() if isinstance(test.op, ast.And) else ast.And(), [_negate(v) for v in test.values])
    return ast.UnaryOp(ast.Not(), test)


def _polarity(test: ast.expr) -> int:
    """Positive tests minus negative ones; a test and its :func:`_negate` have opposite signs."""
    if isinstance(test, ast.BoolOp):
        total = sum(_polarity(v) for v in test.values)
        return total or (1 if isinstance(test.op, ast.And) else -1)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return -1
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in (*_INVERSE, ast.Lt, ast.LtE):
        return 1 if isinstance(test.ops[0], _POSITIVE) else -1
    return 1


class _Syntax(ast.NodeTransformer):
    """Spellings of one operation made one: ``x += e`` is ``x = x + e``; ``b > a`` is ``a < b``;
    ``x == 1`` and ``1 == x`` alike; ``not`` pushed into comparisons; an ``if``/``else`` (statement
    or expression) with a negative test is its positive test with the branches swapped."""

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        load = ast.fix_missing_locations(ast.copy_location(_as_load(node.target), node.target))
        value = ast.copy_location(ast.BinOp(load, node.op, node.value), node)
        return ast.copy_location(ast.Assign([node.target], value), node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        ops = [type(o) for o in node.ops]
        if all(o in _FLIP for o in ops):  # c > b > a: a < b < c
            operands = [node.left, *node.comparators][::-1]
            return ast.copy_location(ast.Compare(operands[0], [_FLIP[o]() for o in ops[::-1]], operands[1:]), node)
        if len(ops) == 1 and ops[0] in (ast.Eq, ast.NotEq) and _shape(node.comparators[0]) < _shape(node.left):
            return ast.copy_location(ast.Compare(node.comparators[0], node.ops, [node.left]), node)
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, (ast.Compare, ast.BoolOp, ast.UnaryOp)):
            out = _negate(node.operand)
            return ast.fix_missing_locations(ast.copy_location(out, node)) if out is not node.operand else out
        return node

    def _branches(self, node):
        self.generic_visit(node)
        if node.orelse and _polarity(node.test) < 0:
            node.test = ast.fix_missing_locations(ast.copy_location(_negate(node.test), node.test))
            node.body, node.orelse = node.orelse, node.body
        return node

    visit_If = visit_IfExp = _branches


def _as_load(target: ast.expr) -> ast.expr:
    load = copy.deepcopy(target)
    for n in ast.walk(load):
        if hasattr(n, "ctx"):
            n.ctx = ast.Load()
    return load


def _blocks(node: ast.AST):
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield name, block


def _scope_parts(scope: ast.AST) -> tuple[list[ast.AST], list[ast.AST]]:
    """The nodes of ``scope``'s own scope, and the scopes nested in it (functions, lambdas, classes)."""
    own, nested = [], []
    if isinstance(scope, ast.Lambda):
        stack = [scope.body]
    elif isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        stack = list(scope.body)
    else:
        stack = [scope]
    while stack:
        n = stack.pop()
        if isinstance(n, _SCOPES):
            nested.append(n)
            if isinstance(n, ast.ClassDef):
                stack += [*n.decorator_list, *n.bases, *n.keywords]
            else:
                stack += [*getattr(n, "decorator_list", []), *n.args.defaults, *filter(None, n.args.kw_defaults)]
            continue
        own.append(n)
        stack.extend(ast.iter_child_nodes(n))
    return own, nested


def _params(fn) -> list[ast.arg]:
    a = fn.args
    return [*a.posonlyargs, *a.args, *filter(None, [a.vararg]), *a.kwonlyargs, *filter(None, [a.kwarg])]


def _bound(own: list[ast.AST], nested: list[ast.AST]) -> tuple[set[str], set[str], set[str]]:
    """Names a scope binds: (by assignment and the like, by import or ``match``, declared global/nonlocal)."""
    plain, other, declared = set(), set(), set()
    for n in own:
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            plain.add(n.id)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            plain.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            other |= {a.asname or a.name.partition(".")[0] for a in n.names}
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            other.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            other.add(n.rest)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            declared |= set(n.names)
    plain |= {n.name for n in nested if not isinstance(n, ast.Lambda)}
    return plain - declared - other, other - declared, declared


def _free(scope: ast.AST) -> set[str]:
    """Names used in ``scope`` (or deeper) that it does not bind: what a closure reads from outside."""
    own, nested = _scope_parts(scope)
    plain, other, declared = _bound(own, nested)
    local = plain | other
    if not isinstance(scope, ast.ClassDef):
        local |= {a.arg for a in _params(scope)}
    used = {n.id for n in own if isinstance(n, ast.Name)} | declared
    inner = set().union(*(_free(n) for n in nested)) if nested else set()
    return (used - local) | (inner if isinstance(scope, ast.ClassDef) else inner - local)


class _Values:
    """Renames each function's own names to its values (``%n``, unique in the module), then rewrites."""

    def __init__(self):
        self.count = 0
        self.phis: dict[str, list[str | None]] = {}
        self.fixed: set[str] = set()  # one name for every binding: read by a closure, or bound by ``match``

    def new(self) -> str:
        self.count += 1
        return f"%{self.count}"

    # ---- renaming
    def module(self, module: ast.Module) -> None:
        self._outside(module, {})
        _Rewrites(self).run(module)

    def _outside(self, node: ast.AST, outer: dict[str, str]) -> None:
        """Functions found outside any function (module level, class bodies)."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                self._function(child, outer)
            else:
                if isinstance(child, ast.Name) and child.id in outer:
                    child.id = outer[child.id]
                self._outside(child, outer)

    def _function(self, fn, outer: dict[str, str]) -> None:
        own, nested = _scope_parts(fn)
        plain, other, declared = _bound(own, nested)
        plain |= {a.arg for a in _params(fn)}
        captured = set().union(*(_free(n) for n in nested)) if nested else set()
        fixed = {n: self.new() for n in sorted((plain & captured) | other - _imported(own))}
        self.fixed |= set(fixed.values())
        state = _Scope(self, plain - set(fixed), fixed, {k: v for k, v in outer.items() if k not in plain | other})
        for a in _params(fn):
            a.arg = state.bind(a.arg)
        if isinstance(fn, ast.Lambda):
            state.expr(fn.body)
        else:
            state.block(fn.body)


def _imported(own) -> set[str]:
    return {
        a.asname or a.name.partition(".")[0]
        for n in own
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }


class _Scope:
    """One function's renaming: ``env`` holds the value each of its names has at this point."""

    def __init__(self, values: _Values, ssa: set[str], fixed: dict[str, str], outer: dict[str, str]):
        self.v, self.ssa, self.fixed, self.outer = values, ssa, fixed, outer
        self.env: dict[str, str] = {}

    def use(self, name: str) -> str:
        if name in self.ssa:
            if name not in self.env:  # read before any binding: one value for it
                self.env[name] = self.v.new()
            return self.env[name]
        return self.fixed.get(name) or self.outer.get(name, name)

    def bind(self, name: str) -> str:
        if name in self.ssa:
            self.env[name] = self.v.new()
            return self.env[name]
        return self.use(name)

    def _snapshot(self, names) -> dict[str, str | None]:
        return {n: self.env.get(n) for n in names}

    def _restore(self, snap) -> None:
        for n, value in snap.items():
            if value is None:
                self.env.pop(n, None)
            else:
                self.env[n] = value

    def _merge(self, names, arms: list[dict]) -> None:
        for n in sorted(names):
            values = [arm[n] for arm in arms]
            if len(set(values)) == 1:
                self._restore({n: values[0]})
            else:
                self.env[n] = phi = self.v.new()
                self.v.phis[phi] = values

    def _assigned(self, nodes) -> set[str]:
        own = [n for node in nodes for n in _scope_parts(ast.Module(body=[node], type_ignores=[]))[0]]
        names = {n.id for n in own if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        names |= {n.name for n in own if isinstance(n, ast.ExceptHandler) and n.name}
        names |= {
            n.name for node in nodes for n in ast.walk(node) if isinstance(n, _SCOPES) and not isinstance(n, ast.Lambda)
        }
        return names & self.ssa

    # ---- statements: each returns whether the block ends there (return, raise, break, continue)
    def block(self, stmts: list[ast.stmt]) -> bool:
        ends = False
        for s in stmts:
            ends = self.stmt(s) or ends
        return ends

    def stmt(self, s: ast.stmt) -> bool:
        if isinstance(s, ast.Assign):
            self.expr(s.value)
            for t in s.targets:
                self.target(t)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.expr(s.value)
                self.target(s.target)
            else:
                self.expr(s.target)
        elif isinstance(s, (ast.For, ast.AsyncFor, ast.While)):
            self.loop(s)
        elif isinstance(s, ast.If):
            self.expr(s.test)
            return self.branches(s, [s.body, s.orelse])
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.target(item.optional_vars)
            return self.block(s.body)
        elif isinstance(s, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            return self.try_(s)
        elif isinstance(s, ast.Match):
            self.expr(s.subject)
            for case in s.cases:
                self.expr(case.pattern)
                if case.guard is not None:
                    self.expr(case.guard)
            return self.branches(s, [c.body for c in s.cases] + [[]])
        elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.definition(s)
        else:  # Expr, Return, Raise, Assert, Delete, Import, Global, Pass, ...
            self.expr(s)
        return isinstance(s, _ENDS)

    def definition(self, s) -> None:
        if isinstance(s, ast.ClassDef):
            for e in [*s.decorator_list, *s.bases, *s.keywords]:
                self.expr(e)
            s.name = self.bind(s.name)
            self.v._outside(ast.Module(body=s.body, type_ignores=[]), {**self.outer, **self.fixed})
            return
        for e in [*s.decorator_list, *s.args.defaults, *filter(None, s.args.kw_defaults)]:
            self.expr(e)
        s.name = self.bind(s.name)
        self.v._function(s, {**self.outer, **self.fixed})

    def branches(self, s, arms: list[list[ast.stmt]]) -> bool:
        names = self._assigned([x for arm in arms for x in arm])
        before, ends = self._snapshot(names), []
        for arm in arms:
            self._restore(before)
            ends.append((self.block(arm), self._snapshot(names)))
        live = [snap for end, snap in ends if not end] or [snap for _, snap in ends]
        self._merge(names, live)
        return all(end for end, _ in ends)

    def loop(self, s) -> None:
        if not isinstance(s, ast.While):
            self.expr(s.iter)
        names = self._assigned([*([s.target] if not isinstance(s, ast.While) else []), *s.body])
        before = self._snapshot(names)
        header = {n: self.v.new() for n in sorted(names)}
        self.env.update(header)
        if isinstance(s, ast.While):
            self.expr(s.test)
        else:
            self.target(s.target)
        self.block(s.body)
        for n, phi in header.items():
            self.v.phis[phi] = [before[n], self.env.get(n)]
        self.env.update(header)
        self.block(s.orelse)

    def try_(self, s) -> bool:
        names = self._assigned([*s.body, *s.orelse, *(h for h in s.handlers)])
        before = self._snapshot(names)
        ended = self.block(s.body)
        after = self._snapshot(names)
        ends = [(self.block(s.orelse) or ended, self._snapshot(names))]
        self._merge(names, [before, after])
        entry = self._snapshot(names)
        for h in s.handlers:
            self._restore(entry)
            if h.type is not None:
                self.expr(h.type)
            if h.name:
                h.name = self.bind(h.name)
            ends.append((self.block(h.body), self._snapshot(names)))
        live = [snap for end, snap in ends if not end] or [snap for _, snap in ends]
        self._merge(names, live)
        self.block(s.finalbody)
        return all(end for end, _ in ends)

    def target(self, t: ast.expr) -> None:
        if isinstance(t, ast.Name):
            t.id = self.bind(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                self.target(e)
        elif isinstance(t, ast.Starred):
            self.target(t.value)
        else:  # x[i] = ..., x.a = ...: reads x
            self.expr(t)

    def expr(self, e: ast.AST) -> None:
        if isinstance(e, ast.Name):
            e.id = self.use(e.id) if isinstance(e.ctx, (ast.Load, ast.Del)) else self.bind(e.id)
        elif isinstance(e, ast.NamedExpr):
            self.expr(e.value)
            self.target(e.target)
        elif isinstance(e, ast.Lambda):
            for d in [*e.args.defaults, *filter(None, e.args.kw_defaults)]:
                self.expr(d)
            self.v._function(e, {**self.outer, **self.fixed})
        elif isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = self._assigned([g.target for g in e.generators])
            saved = self._snapshot(inner)
            for g in e.generators:
                self.expr(g.iter)
                self.target(g.target)
                for cond in g.ifs:
                    self.expr(cond)
            for part in (e.key, e.value) if isinstance(e, ast.DictComp) else (e.elt,):
                self.expr(part)
            self._restore(saved)
        elif isinstance(e, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.definition(e)
        else:
            for child in ast.iter_child_nodes(e):
                self.expr(child)


class _Rewrites:
    """On values: ``a, b = x, y`` split; ``for i in range(len(s))`` reading ``s[i]`` as
    ``for i, x in enumerate(s)`` (and ``for x in s`` where ``i`` is not read otherwise); a copy
    ``x = y`` replaced by ``y``; a value read once put where it is read."""

    def __init__(self, values: _Values):
        self.v = values

    def _ours(self, name: str) -> bool:
        return name.startswith("%") and name not in self.v.fixed

    def run(self, module: ast.Module) -> None:
        self._split(module)
        self._enumerate(module)
        self._propagate(module)

    def _split(self, module):
        for node in ast.walk(module):
            for name, block in _blocks(node):
                out = []
                for s in block:
                    if (
                        isinstance(s, ast.Assign)
                        and len(s.targets) == 1
                        and isinstance(s.targets[0], ast.Tuple)
                        and isinstance(s.value, ast.Tuple)
                        and len(s.targets[0].elts) == len(s.value.elts)
                        and not any(isinstance(e, ast.Starred) for e in [*s.targets[0].elts, *s.value.elts])
                    ):
                        out += [
                            ast.copy_location(ast.Assign([t], v), s)
                            for t, v in zip(s.targets[0].elts, s.value.elts, strict=False)
                        ]
                    else:
                        out.append(s)
                setattr(node, name, out)

    def _reads(self, module) -> dict[str, list[ast.Name]]:
        """Each value -> the names that read it; a name inside an f-string is part of a message (a
        constant, see _emit), not a read."""
        in_messages = {id(n) for f in ast.walk(module) if isinstance(f, ast.JoinedStr) for n in ast.walk(f)}
        reads: dict[str, list[ast.Name]] = {}
        for n in ast.walk(module):
            if (
                isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load)
                and self._ours(n.id)
                and id(n) not in in_messages
            ):
                reads.setdefault(n.id, []).append(n)
        return reads

    def _through_phis(self, reads) -> dict[str, int]:
        """Each value -> how many phis that something reads (directly or through phis) join it."""
        live, todo = set(), [p for p in self.v.phis if reads.get(p)]
        while todo:
            p = todo.pop()
            if p not in live:
                live.add(p)
                todo += [o for o in self.v.phis[p] if o in self.v.phis]
        through: dict[str, int] = {}
        for p in live:
            for o in self.v.phis[p]:
                through[o] = through.get(o, 0) + 1
        return through

    def _enumerate(self, module):
        through = self._through_phis(self._reads(module))
        for node in list(ast.walk(module)):
            if isinstance(node, ast.For):
                self._indexed(node, node.body, through)
            elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                result = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
                for k, g in enumerate(node.generators):
                    later = [part for h in node.generators[k + 1 :] for part in (h.iter, h.target, *h.ifs)]
                    self._indexed(g, [*g.ifs, *later, *result], through)

    def _indexed(self, loop, body: list[ast.AST], through: dict[str, int]) -> None:
        """``for i in range(len(s))`` whose body reads ``s[i]``: ``for i, x in enumerate(s)``, or
        ``for x in s`` where nothing else reads ``i``; reading ``s[i]`` and ``t[i]``, the items of
        ``zip(s, t, strict=True)``."""
        if not (
            isinstance(loop.target, ast.Name)
            and self._ours(loop.target.id)
            and _is_call(loop.iter, "range", 1)
            and _is_call(loop.iter.args[0], "len", 1)
            and isinstance(loop.iter.args[0].args[0], ast.Name)
        ):
            return
        i, origin = loop.target.id, loop.iter
        reads: dict[str, list[ast.Subscript]] = {}  # sequence -> its s[i], in the order first read
        for part in body:
            for n in ast.walk(part):
                if (
                    isinstance(n, ast.Subscript)
                    and isinstance(n.ctx, ast.Load)
                    and isinstance(n.value, ast.Name)
                    and self._ours(n.value.id)
                    and isinstance(n.slice, ast.Name)
                    and n.slice.id == i
                ):
                    reads.setdefault(n.value.id, []).append(n)
        if loop.iter.args[0].args[0].id not in reads:
            return
        items = []
        for subscripts in reads.values():
            items.append(ast.Name(self.v.new(), ast.Store()))
            for n in subscripts:  # the Subscript node becomes the Name of the item, in place
                n.__class__, n.__dict__ = ast.Name, {**n.__dict__, "id": items[-1].id, "ctx": ast.Load()}
                for f in ("value", "slice"):
                    n.__dict__.pop(f, None)
        seqs = [ast.Name(seq, ast.Load()) for seq in reads]
        if len(seqs) > 1:
            strict = [ast.keyword("strict", ast.Constant(True))]
            item, seq = ast.Tuple(items, ast.Store()), ast.Call(ast.Name("zip", ast.Load()), seqs, strict)
        else:
            item, seq = items[0], seqs[0]
        if through.get(i) or any(isinstance(n, ast.Name) and n.id == i for part in body for n in ast.walk(part)):
            loop.target = ast.Tuple([loop.target, item], ast.Store())
            loop.iter = ast.Call(ast.Name("enumerate", ast.Load()), [seq], [])
        else:
            loop.target, loop.iter = item, seq
        for new in (loop.target, loop.iter):
            for n in ast.walk(new):
                ast.copy_location(n, origin)

    def _propagate(self, module):
        defs, parents = {}, {}
        for node in ast.walk(module):
            for _, block in _blocks(node):
                for s in block:
                    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                        defs[s.targets[0].id] = s
            for slot, value in ast.iter_fields(node):
                for child in value if isinstance(value, list) else [value]:
                    if isinstance(child, ast.Name):
                        parents[id(child)] = (node, slot)
        uses = self._reads(module)
        # Copies first: x = y, every read of x reads y.
        alias = {
            x: s.value.id
            for x, s in defs.items()
            if isinstance(s.value, ast.Name) and self._ours(x) and self._ours(s.value.id)
        }

        def root(x):
            seen = set()
            while x in alias and x not in seen:
                seen.add(x)
                x = alias[x]
            return x

        dropped = set()
        for x in alias:
            if (r := root(x)) != x:
                dropped.add(id(defs[x]))
                for n in uses.get(x, []):
                    n.id = r
                uses.setdefault(r, []).extend(uses.pop(x, []))
        for ops in self.v.phis.values():
            ops[:] = [root(o) if o else o for o in ops]
        through = self._through_phis(uses)
        for x, s in defs.items():
            if id(s) in dropped or not self._ours(x) or len(uses.get(x, [])) != 1 or through.get(x):
                continue
            if not _small(s.value):
                continue
            (n,) = uses[x]
            parent, slot = parents[id(n)]
            value = getattr(parent, slot)
            if isinstance(value, list):
                value[value.index(n)] = s.value
            else:
                setattr(parent, slot, s.value)
            dropped.add(id(s))
        for node in ast.walk(module):
            for name, block in _blocks(node):
                kept = [s for s in block if id(s) not in dropped]
                setattr(node, name, kept or [ast.copy_location(ast.Pass(), block[0])])


def _small(value: ast.expr) -> bool:
    """At most :data:`INLINE_NODES` nodes, none that binds or suspends: a helper worth putting in
    its use. Helpers are put in their uses first to last, so no expression grows past the bound."""
    for count, n in enumerate(ast.walk(value)):
        if count >= INLINE_NODES or isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)):
            return False
    return True


def _is_call(node, name: str, args: int) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == name
        and len(node.args) == args
        and not node.keywords
    )


def _parse(source: str | bytes) -> ast.Module:
    module = ast.parse(source)
    size = sum(1 for _ in ast.walk(module))
    if size > MAX_NODES:
        raise TooLarge(f"not compared: {size} syntax nodes, more than the {MAX_NODES} compared")
    return module


def _tokens(source: str | bytes, contract: frozenset[str]) -> list[tuple[str, int]]:
    """The normalised module as (token, source line) pairs."""
    module = _parse(source)
    aliases = _imports(module)
    module = _Normaliser(order=False).visit(_Syntax().visit(module))
    _Values().module(module)
    module = _Normaliser(order=True).visit(module)
    body = [s for s in module.body if not isinstance(s, (ast.Import, ast.ImportFrom))]
    body = _drop_dead_stores(body, ast.Module(body=body, type_ignores=[]), set(contract))
    whole = ast.Module(body=body, type_ignores=[])
    used = _names(whole, ast.Load)
    defs = [s for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    rest = [s for s in body if s not in defs]
    # Contract names first, in name order; the learner's own helpers after, in an order their names cannot change.
    defs.sort(key=lambda d: (d.name not in contract, d.name if d.name in contract else _shape(d)))
    # Imports in one order, only those used (an unused one is a dead statement).
    out = [(f"import {dotted}", 1) for dotted in sorted({aliases[n] for n in aliases.keys() & used})]
    first = _first_uses(whole)
    own = [d.name for d in defs] + sorted(
        _bound_at_top(whole) - {d.name for d in defs}, key=lambda n: first.get(n, (0, 0))
    )
    names = {**aliases, **{n: f"g{i}" for i, n in enumerate(n for n in own if n not in contract)}}
    for stmt in [*rest, *defs]:
        _emit(stmt, out, names, {}, stmt.lineno)
    return out


def _emit(node: ast.AST, out: list, names: dict[str, str], local: dict[str, str], line: int) -> None:
    """Pre-order tokens of ``node``; a function's values (see :class:`_Values`) become v0, v1, ...
    in the order they are first met."""
    line = getattr(node, "lineno", line)

    def name(n: str) -> str:
        if n.startswith("%") and n not in names:
            return local.setdefault(n, f"v{len(local)}")
        return names.get(n, n)

    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        # What a comprehension binds is its own: named by place in it, wherever the comprehension is.
        bound = [n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)]
        depth = sum(1 for k in names if k.startswith("%"))
        names = {**names, **{b: f"c{depth + i}" for i, b in enumerate(dict.fromkeys(bound))}}

    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        if not isinstance(node, ast.Lambda):
            out.append((f"def {name(node.name)}", line))
            for d in node.decorator_list:
                _emit(d, out, names, local, line)
        local = {}  # numbered from v0 in each function, wherever it is defined
        _emit(node.args, out, names, local, line)  # the return annotation left out
        for part in node.body if isinstance(node.body, list) else [node.body]:
            _emit(part, out, names, local, line)
        return
    if isinstance(node, ast.expr_context):
        return
    if isinstance(node, ast.JoinedStr):  # an f-string is a message: a constant, however it is worded
        out.append(("const str", line))
        return
    if isinstance(node, ast.arg):  # annotations are left out: they do not change what runs
        out.append((f"arg {name(node.arg)}", line))
        return
    if isinstance(node, ast.Name):
        token = name(node.id)
    elif isinstance(node, ast.Attribute):
        token = f".{node.attr}"
    elif isinstance(node, ast.Constant):
        token = f"const {type(node.value).__name__}"
    elif isinstance(node, ast.keyword):
        token = f"kw {node.arg}"
    elif isinstance(node, ast.AnnAssign):
        token = "Assign"
        out.append((token, line))
        for child in (node.target, node.value):
            if child is not None:
                _emit(child, out, names, local, line)
        return
    elif isinstance(node, ast.ClassDef):
        token = f"class {name(node.name)}"
    else:
        token = type(node).__name__
    out.append((token, line))
    for child in ast.iter_child_nodes(node):
        _emit(child, out, names, local, line)


def _first_uses(scope: ast.AST) -> dict[str, tuple[int, int]]:
    """Each name -> where it first appears in ``scope`` (line, column)."""
    first: dict[str, tuple[int, int]] = {}
    for n in ast.walk(scope):
        if isinstance(n, ast.Name):
            first[n.id] = min(first.get(n.id, (n.lineno, n.col_offset)), (n.lineno, n.col_offset))
    return first


def _hash(text: str) -> int:
    """Stable across processes (Python's own str hash is salted per process)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _literal_tokens(source: str | bytes) -> list[tuple[str, int]]:
    """The module as written, as (token, source line) pairs: names, constants and messages kept;
    one spelling per operation (:class:`_Syntax`), independent statements and definitions in one
    order, what never runs or does nothing (:func:`_live`), imports and annotations left out."""
    out: list[tuple[str, int]] = []

    def emit(node: ast.AST, line: int) -> None:
        line = getattr(node, "lineno", line)
        if isinstance(node, (ast.expr_context, ast.Import, ast.ImportFrom)):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append((f"def {node.name}", line))
            for child in [*node.decorator_list, node.args, *node.body]:  # the return annotation left out
                emit(child, line)
            return
        if isinstance(node, ast.JoinedStr):
            token = ast.unparse(node)
        elif isinstance(node, ast.arg):
            out.append((f"arg {node.arg}", line))
            return
        elif isinstance(node, ast.Name):
            token = node.id
        elif isinstance(node, ast.Attribute):
            token = f".{node.attr}"
        elif isinstance(node, ast.Constant):
            token = repr(node.value)
        elif isinstance(node, ast.keyword):
            token = f"kw {node.arg}"
        elif isinstance(node, ast.ClassDef):
            token = f"class {node.name}"
        else:
            token = type(node).__name__
        out.append((token, line))
        for child in ast.iter_child_nodes(node):
            emit(child, line)

    module = _Normaliser(order=True).visit(_Normaliser(order=False).visit(_Syntax().visit(_parse(source))))
    defs = [s for s in module.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    for stmt in [*(s for s in module.body if s not in defs), *sorted(defs, key=lambda d: d.name)]:
        emit(stmt, stmt.lineno)
    return out


def fingerprints(source: str | bytes, contract: frozenset[str] = frozenset(), literal: bool = False) -> Fingerprints:
    """The winnowed fingerprints of a module (SyntaxError and ValueError as :func:`ast.parse` raises them).
    ``contract``: the names the exercise asks for (kept as they are; every answer has them).
    ``literal``: of the module as written (:func:`_literal_tokens`), not normalised."""
    return _winnow(_literal_tokens(source) if literal else _tokens(source, contract))


def _winnow(toks: list[tuple[str, int]]) -> Fingerprints:
    grams = [
        (_hash("\n".join(t for t, _ in toks[i : i + K])), frozenset(n for _, n in toks[i : i + K]))
        for i in range(max(0, len(toks) - K + 1))
    ]
    chosen: dict[int, frozenset[int]] = {}
    for i in range(max(1, len(grams) - WINDOW + 1) if grams else 0):
        h, lines = min(grams[i : i + WINDOW], key=lambda g: g[0])
        chosen[h] = chosen.get(h, frozenset()) | lines
    return Fingerprints(chosen)


def compare(mine: Fingerprints, theirs: Fingerprints, against: str, skeleton: frozenset[int] = frozenset()) -> Match:
    """The weighted share of the smaller side's fingerprints that the other has too. Under
    :data:`MIN_OWN` fingerprints beyond the skeleton on either side the score is 0: a stub with a
    line or two is too little code to be anyone's copy."""

    def weight(hashes) -> float:
        return sum(SKELETON_WEIGHT if h in skeleton else 1.0 for h in hashes)

    shared = mine.hashes & theirs.hashes
    if min(len(mine.hashes - skeleton), len(theirs.hashes - skeleton)) < MIN_OWN:
        return Match(against, 0.0)
    score = weight(shared) / min(weight(mine.hashes), weight(theirs.hashes))
    own = shared - skeleton
    return Match(
        against,
        min(1.0, score),
        tuple(sorted(set().union(*(mine.lines[h] for h in own)))),
        tuple(sorted(set().union(*(theirs.lines[h] for h in own)))),
    )


@dataclass(frozen=True)
class Prints:
    """An answer's fingerprints both ways: normalised, and as written (``literal``)."""

    normalised: Fingerprints
    literal: Fingerprints
    raw: Fingerprints = field(default_factory=Fingerprints)  # the text as written (:func:`raw_fingerprints`)
    opaque: tuple[tuple[int, str], ...] = ()  # where it builds the code it runs (:func:`opaque`)
    blobs: tuple[tuple[bytes, int], ...] = ()  # an opaque answer's bytes, with their lines


# ---------------------------------------------------------------- code run from a constant string
# exec of the reference's text, or of zlib.decompress(b85decode(b"...")), has no syntax tree of its
# own to compare (a cheater's attempt scored 0%): what such a call runs is folded back in where it
# is built from constants by these pure decoders alone (anything else is left as written).
_DECODERS = {
    "base64": {"b64decode", "b85decode", "a85decode", "b32decode", "b16decode", "urlsafe_b64decode", "decodebytes"},
    "binascii": {"unhexlify", "a2b_base64", "a2b_hex"},
    "codecs": {"decode", "encode"},
    "zlib": {"decompress"},
    "bz2": {"decompress"},
    "lzma": {"decompress"},
    "gzip": {"decompress"},
}
_RUNS = {"exec", "eval", "compile"}
MAX_UNFOLDED = 1 << 20  # bytes a folded string may grow to (a decompression bomb stays a string)


class _Unknown(Exception):
    pass


class _Folder:
    """Evaluates an expression made of constants, names bound once at the top to such expressions,
    ``+``, ``[::-1]``, ``.decode()``/``.encode()``, ``bytes.fromhex`` and :data:`_DECODERS`."""

    def __init__(self, module: ast.Module):
        self.imports = _imports(module)
        self.top = {}
        for node in module.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                self.top[name] = None if name in self.top else node.value  # bound twice: not a constant

    def value(self, node: ast.expr, depth: int = 0):
        if depth > 50:
            raise _Unknown
        if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
            return node.value
        if isinstance(node, ast.Name) and self.top.get(node.id) is not None:
            return self.value(self.top[node.id], depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self._small(self.value(node.left, depth + 1) + self.value(node.right, depth + 1))
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            sl = node.slice
            if sl.lower is None and sl.upper is None and isinstance(sl.step, ast.UnaryOp):
                if ast.literal_eval(sl.step) == -1:
                    return self.value(node.value, depth + 1)[::-1]
        if isinstance(node, ast.Call) and not node.keywords and isinstance(node.func, ast.Attribute):
            return self._call(node, depth)
        raise _Unknown

    def _call(self, node: ast.Call, depth: int):
        func, attr = node.func, node.func.attr
        args = [self.value(a, depth + 1) if not _is_small_literal(a) else ast.literal_eval(a) for a in node.args]
        if isinstance(func.value, ast.Name):
            module = self.imports.get(func.value.id, "")
            if attr in _DECODERS.get(module, ()):
                import importlib

                return self._small(_bounded(getattr(importlib.import_module(module), attr), args))
            if attr == "fromhex" and func.value.id == "bytes":
                return bytes.fromhex(*args)
        if attr in ("decode", "encode") and all(isinstance(a, str) for a in args):
            return self._small(getattr(self.value(func.value, depth + 1), attr)(*args))
        raise _Unknown

    @staticmethod
    def _small(value):
        if len(value) > MAX_UNFOLDED:
            raise _Unknown
        return value


def _is_small_literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, int | str) and not isinstance(node.value, bool)


def _bounded(fn, args):
    """A decoder's result, never more than :data:`MAX_UNFOLDED` bytes made (zlib, bz2, lzma)."""
    import bz2
    import lzma
    import zlib

    if fn in (zlib.decompress, bz2.decompress, lzma.decompress) and len(args) == 1:
        maker = {
            zlib.decompress: zlib.decompressobj,
            bz2.decompress: bz2.BZ2Decompressor,
            lzma.decompress: lzma.LZMADecompressor,
        }
        out = maker[fn]().decompress(args[0], MAX_UNFOLDED + 1)
        if len(out) > MAX_UNFOLDED:
            raise _Unknown
        return out
    try:
        return fn(*args)
    except Exception as exc:  # not what a decoder accepts: left as written
        raise _Unknown from exc


def _run_source(call: ast.expr, folder: _Folder) -> str | None:
    """The text an ``exec(...)``/``exec(compile(...))`` call runs, where constants alone build it."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in _RUNS and call.args):
        return None
    first = call.args[0]
    inner = _run_source(first, folder) if isinstance(first, ast.Call) else None
    if inner is not None:
        return inner
    try:
        text = folder.value(first)
    except (_Unknown, ValueError, TypeError, RecursionError, MemoryError):
        return None
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError:
            return None
    return text


class _Unfold(ast.NodeTransformer):
    def __init__(self, folder: _Folder, depth: int):
        self.folder, self.depth, self.changed = folder, depth, False

    def visit_Expr(self, node: ast.Expr):
        text = _run_source(node.value, self.folder)
        if text is None:
            return node
        try:
            body = ast.parse(text).body
        except (SyntaxError, ValueError, RecursionError):
            return node
        self.changed = True
        return _unfolded_body(ast.Module(body=body, type_ignores=[]), self.depth + 1) or [ast.Pass()]


def _unfolded_body(module: ast.Module, depth: int = 0) -> list[ast.stmt] | None:
    if depth > 3:
        return module.body
    unfold = _Unfold(_Folder(module), depth)
    module = unfold.visit(module)
    return module.body if unfold.changed or depth else None


def unfolded(source: str | bytes) -> str | bytes:
    """``source`` with each statement that runs code built from constants (exec of a string, of a
    decoded or decompressed one) replaced by that code; unchanged where there is none."""
    if isinstance(source, bytes) and b"exec" not in source and b"eval" not in source and b"compile" not in source:
        return source
    if isinstance(source, str) and not any(w in source for w in _RUNS):
        return source
    try:
        tree = ast.parse(source)
        if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
            return source
        body = _unfolded_body(tree)
        if body is None:
            return source
        text = ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[])))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source
    return text.encode() if isinstance(source, bytes) else text


# ---------------------------------------------------------------- code the comparison cannot read
# Issue 27/28: an answer that builds the code it runs at run time from data (a marshal blob made a
# function, its own docstring or comment lines exec'd, a module imported by a built name) has no
# syntax tree of what runs: it scored 0% silently. One detector for the class: every call of a
# code-building or code-loading function (and every reach for one by a built name) that
# :func:`unfolded` does not fold is reported as *opaque*, beside whatever score the rest gets.
_BUILDERS = {
    "exec", "eval", "compile", "execfile", "builtins.exec", "builtins.eval", "builtins.compile",
    "marshal.loads", "marshal.load", "pickle.loads", "pickle.load", "pickle.Unpickler", "_pickle.loads",
    "_pickle.load", "dill.loads", "dill.load", "cloudpickle.loads", "cloudpickle.load", "shelve.open",
    "types.FunctionType", "types.CodeType", "types.LambdaType", "importlib.reload",
    "importlib.util.spec_from_file_location", "importlib.util.spec_from_loader", "importlib.util.module_from_spec",
    "importlib.machinery.SourceFileLoader", "importlib.machinery.SourcelessFileLoader", "runpy.run_path",
    "runpy.run_module", "code.InteractiveInterpreter", "code.InteractiveConsole", "code.interact",
    "code.compile_command", "codeop.compile_command", "codeop.Compile", "codeop.CommandCompiler",
    "zipimport.zipimporter", "ctypes.pythonapi", "inspect.getsource",
}  # fmt: skip
_IMPORTERS = {"__import__", "builtins.__import__", "importlib.import_module", "importlib.__import__"}
_CODE_ATTRS = {"__code__", "__globals__", "__builtins__", "co_code", "co_consts", "__import__", "__loader__"}
# A string naming one of these, however it is built ("ex" + "ec"), reaches for a code builder.
_BUILDER_NAMES = {
    "exec", "execfile", "__import__", "import_module", "marshal", "pickle", "FunctionType", "CodeType",
    "__code__", "__builtins__", "builtins", "runpy", "importlib",
}  # fmt: skip
_MODULE_NAMES = {"marshal", "pickle", "builtins", "runpy", "importlib"}
_NAMESPACES = {"builtins", "__builtins__", "globals", "vars", "sys.modules", "locals"}


def _dotted(node: ast.expr, aliases: dict[str, str]) -> str:
    if isinstance(node, ast.Name):
        return aliases.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value, aliases)}.{node.attr}"
    if isinstance(node, ast.Call):
        name = _dotted(node.func, aliases)  # globals()[...]: "globals"
        if name in _IMPORTERS and node.args and isinstance(node.args[0], ast.Constant):
            return str(node.args[0].value)  # __import__("marshal").loads: "marshal.loads"
        return name
    if isinstance(node, ast.Subscript):
        return _dotted(node.value, aliases)  # sys.modules["builtins"]: "sys.modules"
    return "?"


def _code_builder(node: ast.AST, aliases: dict[str, str], folder: _Folder) -> str | None:
    """What ``node`` builds or loads code with, or None."""
    if isinstance(node, ast.Call):
        name = _dotted(node.func, aliases)
        if name in _BUILDERS:
            return name
        if name in _IMPORTERS:
            literal = node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            return None if literal else name
        if any(k.arg and k.arg.startswith("co_") for k in node.keywords):  # code.replace(co_code=...)
            return f"{name}(co_...=)"
        if name == "getattr" and len(node.args) >= 2 and _dotted(node.args[0], aliases) in _NAMESPACES:
            return f"getattr({_dotted(node.args[0], aliases)}, ...)"
    elif isinstance(node, ast.Attribute) and node.attr in _CODE_ATTRS:
        return node.attr
    elif isinstance(node, ast.Name) and node.id == "__builtins__":
        return node.id
    elif isinstance(node, ast.Subscript) and _dotted(node.value, aliases) in {"sys.modules", "globals", "vars"}:
        key = node.slice
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value not in _BUILDER_NAMES):
            return f"{_dotted(node.value, aliases)}[...]"
    if isinstance(node, ast.Constant) and node.value in _BUILDER_NAMES - _MODULE_NAMES:
        return repr(node.value)  # getattr(x, "exec"): a module's name alone is an honest string too
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        try:
            text = folder.value(node)
        except (_Unknown, ValueError, TypeError, RecursionError, MemoryError):
            return None
        if isinstance(text, str) and text in _BUILDER_NAMES:
            return repr(text)
    return None


def _opaque_calls(module: ast.Module, depth: int = 0) -> list[tuple[int, str]]:
    folder, aliases = _Folder(module), _imports(module)
    out: list[tuple[int, str]] = []
    folded: set[int] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Expr) and depth <= 3 and (text := _run_source(node.value, folder)) is not None:
            try:
                inner = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError):
                continue
            folded |= {id(n) for n in ast.walk(node.value)}  # what the comparison reads as the code it runs
            out += [(node.lineno, what) for _, what in _opaque_calls(inner, depth + 1)]
    for node in ast.walk(module):
        if id(node) not in folded and (what := _code_builder(node, aliases, folder)):
            out.append((getattr(node, "lineno", 1), what))
    return out


def opaque(source: str | bytes) -> tuple[tuple[int, str], ...]:
    """Where ``source`` builds or loads the code it runs from data (line, what with), in line order:
    the comparison reads only the code written as code (and what :func:`unfolded` folds)."""
    try:
        module = _parse(source)
        return tuple(sorted(set(_opaque_calls(module))))
    except (TooLarge, SyntaxError, ValueError, RecursionError, MemoryError):
        return ()


def opaque_text(found) -> str:
    """``((3, "exec"), (3, "__doc__"), (7, "marshal.loads"))`` -> ``"3 (exec), 7 (marshal.loads)"``."""
    by_line: dict[str, list[str]] = {}
    for where, what in found:
        by_line.setdefault(str(where), []).append(what)
    return ", ".join(f"{w} ({', '.join(dict.fromkeys(v))})" for w, v in by_line.items())


# What an opaque answer keeps as data may be the code it runs: its docstring or other strings, its
# comment lines (``#|def ...``), text in a bytes blob (a pickle's), a marshalled code object. Those
# are compared too, each as a module of its own at the lines it sits on (an honest answer, which
# is never opaque, is compared as it was).
MAX_HIDDEN = 64  # parts of an opaque answer tried as code, at most
_PRINTABLE = re.compile(rb"(?:[\t\n\r\x20-\x7e]|[\xc2-\xf4][\x80-\xbf]{1,3}){40,}")
_COMMENT = re.compile(r"^[ \t]*#(.*)$")


def _hidden_parts(source: str | bytes, module: ast.Module) -> list[tuple[str, list[int]]]:
    """(text, the file line of each of its lines) of what an opaque module keeps as data."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    parts: list[tuple[str, list[int]]] = []
    comments = [(n, m.group(1)) for n, line in enumerate(text.splitlines(), 1) if (m := _COMMENT.match(line))]
    groups: dict[str, list[tuple[int, str]]] = {}
    for n, body in comments:  # every comment line with the same mark after its #: one part
        groups.setdefault(body[:1] if body[:1] and not body[:1].isalnum() else "", []).append((n, body))
    for mark, lines in groups.items():
        stripped = [body[len(mark) :] if mark.strip() else body for _, body in lines]
        parts.append((textwrap.dedent("\n".join(stripped)), [n for n, _ in lines]))
    for node in ast.walk(module):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value:
            lines = node.value.split("\n")
            parts.append(
                (textwrap.dedent(node.value), [min(node.lineno + i, node.end_lineno) for i in range(len(lines))])
            )
        elif isinstance(node, ast.Constant) and isinstance(node.value, bytes):
            for m in _PRINTABLE.finditer(node.value[:MAX_UNFOLDED]):
                chunk = m.group().decode("utf-8", "replace")
                parts.append((chunk, [node.lineno] * (chunk.count("\n") + 1)))
    return parts[:MAX_HIDDEN]


def _as_code(text: str) -> int | None:
    """Where code that does something (a definition, an assignment, a call) starts in ``text``, if it is code."""
    for start in range(min(8, len(text))):  # a blob's run may start with an opcode byte or two
        try:
            module = _parse(text[start:])
        except (SyntaxError, ValueError, RecursionError, MemoryError, TooLarge):
            continue
        if any(not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant | ast.Name)) for s in module.body):
            return start
        return None
    return None


def _moved(fp: Fingerprints, lines: list[int]) -> Fingerprints:
    return Fingerprints({h: frozenset(lines[min(n, len(lines)) - 1] for n in ns) for h, ns in fp.lines.items()})


def _union(a: Fingerprints, b: Fingerprints) -> Fingerprints:
    out = dict(a.lines)
    for h, ns in b.lines.items():
        out[h] = out.get(h, frozenset()) | ns
    return Fingerprints(out)


def _code_bytes(source: str | bytes) -> list[tuple[bytes, int, int]]:
    """Each function's bytecode in ``source`` compiled here (co_code, first line, last line)."""
    out = []
    todo = [compile(source, "<reference>", "exec")]
    while todo:
        code = todo.pop()
        todo += [c for c in code.co_consts if hasattr(c, "co_code")]
        if code.co_name != "<module>" and len(code.co_code) >= 16:
            last = max((n for _, _, n in code.co_lines() if n), default=code.co_firstlineno)
            out.append((code.co_code, code.co_firstlineno, last))
    return out


def prints(source: str | bytes, contract: frozenset[str] = frozenset(), literal: bool = True) -> Prints:
    """``literal``: False where only the normalised ones are compared (a question that is not tight).
    Code run from a constant string is compared as the code it runs (:func:`unfolded`); an
    :func:`opaque` answer's data that is code (its docstring, comment lines, strings, text in a
    blob) is compared too, at the lines it sits on."""
    found = opaque(source)
    run = unfolded(source)
    normal = fingerprints(run, contract)
    as_written = fingerprints(run, contract, literal=True) if literal else Fingerprints()
    blobs: list[tuple[bytes, int]] = []
    if found:
        module = ast.parse(source)
        for text, lines in _hidden_parts(source, module):
            start = _as_code(text)
            if start is None:
                continue
            part, lines = text[start:], lines[text[:start].count("\n") :] or lines[-1:]
            normal = _union(normal, _moved(fingerprints(part, contract), lines))
            if literal:
                as_written = _union(as_written, _moved(fingerprints(part, contract, literal=True), lines))
        blobs = _blobs(module)
    return Prints(normal, as_written, raw_fingerprints(source), found, tuple(blobs))


def _blobs(module: ast.Module) -> list[tuple[bytes, int]]:
    """The bytes an opaque module holds (constants, and what its constants fold to), with their lines."""
    folder, out = _Folder(module), []
    for node in ast.walk(module):
        if isinstance(node, ast.Constant) and isinstance(node.value, bytes) and len(node.value) >= 16:
            out.append((node.value, node.lineno))
        elif isinstance(node, ast.Call) and node.args and not isinstance(node.args[0], ast.Constant):
            try:
                value = folder.value(node.args[0])
            except (_Unknown, ValueError, TypeError, RecursionError, MemoryError):
                continue
            if isinstance(value, bytes):
                out.append((value, node.lineno))
    return out[:MAX_HIDDEN]


# ---------------------------------------------------------------- the raw text (between classmates)
RAW_PIECE = 16  # a long word (a blob's run of base64) is compared this many characters at a time
_WORD = re.compile(r"\w+|[^\w\s]")


def raw_fingerprints(source: str | bytes) -> Fingerprints:
    """The module's text as written, every character of it: code, constants, docstrings, comments
    (whitespace aside). Two classmates' files alike here are alike whatever the code says (a
    marshal blob, a docstring exec'd, hold no code to normalise)."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    toks: list[tuple[str, int]] = []
    for n, line in enumerate(text[: 4 * MAX_UNFOLDED].splitlines(), 1):
        for m in _WORD.finditer(line):
            word = m.group()
            toks += [(word[i : i + RAW_PIECE], n) for i in range(0, len(word), RAW_PIECE)]
    return _winnow(toks)


# ---------------------------------------------------------------- the reference and its skeleton
@dataclass(frozen=True)
class Question:
    contract: frozenset[str]
    reference: Fingerprints
    skeleton: frozenset[int]
    literal: Fingerprints = field(default_factory=Fingerprints)  # the reference as written
    literal_skeleton: frozenset[int] = frozenset()
    code: tuple[tuple[bytes, int, int], ...] = ()  # the reference's functions compiled (:func:`_code_bytes`)

    @property
    def answer(self) -> Prints:
        return Prints(self.reference, self.literal)

    @property
    def tight(self) -> bool:
        """Whether the question leaves too little open (under :data:`MIN_OPEN` of the reference's
        fingerprints beyond the skeleton) for a normalised match to tell a copy from an answer."""
        return bool(self.reference.lines) and len(self.reference.hashes - self.skeleton) < MIN_OPEN

    def judge(
        self, mine: Prints, theirs: Prints, against: str, extra: Prints | None = None, classmate: bool = False
    ) -> Match:
        """:func:`compare` of two answers; ``extra``: more skeleton (the stub the class started
        from). On a :attr:`tight` question a match must hold as written too (the lower score): a
        renamed copy of four lines is then not told from an honest answer, a copy as written is.
        Between ``classmate``s what both share with the reference is skeleton too (the reference's
        row says it): an honest answer scored 0.75 against a classmate who had copied the reference,
        0.5 against the reference itself. On a tight question only as written: normalised, an honest
        answer is nearly all the reference's, and a copy of it would go unseen."""
        skeleton = self.skeleton | (extra.normalised.hashes if extra else frozenset())
        skeleton |= self.reference.hashes if classmate and not self.tight else frozenset()
        normal = compare(mine.normalised, theirs.normalised, against, skeleton)
        if self.tight:
            skeleton = self.literal_skeleton | (extra.literal.hashes if extra else frozenset())
            skeleton |= self.literal.hashes if classmate else frozenset()
            normal = min(normal, compare(mine.literal, theirs.literal, against, skeleton), key=lambda m: m.score)
        if classmate:  # the text as written alike (constants, docstrings, comments): a copy whatever the code says
            raw = compare(mine.raw, theirs.raw, against, extra.raw.hashes if extra else frozenset())
            normal = max(normal, raw, key=lambda m: m.score)
        else:
            normal = max(normal, self.bytecode(mine), key=lambda m: m.score)
        return dataclasses.replace(normal, opaque=mine.opaque)

    def bytecode(self, mine: Prints) -> Match:
        """The share of the reference's compiled functions (by bytecode length) found in the bytes an
        opaque answer holds (a marshalled code object carries its function's ``co_code`` as it is)."""
        if not mine.blobs or not self.code:
            return Match("reference", 0.0)
        found = [(code, first, last) for code, first, last in self.code if any(code in b for b, _ in mine.blobs)]
        share = sum(len(c) for c, _, _ in found) / sum(len(c) for c, _, _ in self.code)
        lines = {n for b, n in mine.blobs if any(c in b for c, _, _ in found)}
        theirs = {n for _, first, last in found for n in range(first, last + 1)}
        return Match("reference", share, tuple(sorted(lines)), tuple(sorted(theirs)))


def _bound_at_top(module: ast.Module) -> set[str]:
    names = set()
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {a.asname or a.name.partition(".")[0] for a in node.names}
        else:
            names |= _names(node, ast.Store)
    return names


def _public_defs(module: ast.Module) -> frozenset[str]:
    """The exercise's contract: the reference's public functions and classes (what the stub asks for)."""
    return frozenset(
        n.name
        for n in module.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not n.name.startswith("_")
    )


def _as_graded(
    mutant: bytes, reference: ast.Module, prints: Fingerprints, contract: frozenset[str], literal: bool = False
) -> frozenset[int]:
    """A mutant's fingerprints as the module it stands for: most mutants replace a function or two
    and take the rest of the reference by ``from solutions.<module> import *``."""
    tree = ast.parse(mutant)
    own = fingerprints(mutant, contract, literal).hashes
    if not any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in tree.body):
        return own
    redefined = _bound_at_top(tree)
    kept = set()
    for node in reference.body:
        if not (_bound_at_top(ast.Module(body=[node], type_ignores=[])) & redefined):
            kept |= set(range(node.lineno, node.end_lineno + 1))
    return own | {h for h, lines in prints.lines.items() if lines <= kept}


@functools.cache
def question(module: str) -> Question | None:
    """The reference's fingerprints and the question's skeleton (see the module's docstring), or
    None where there is no reference to compare with."""
    from grader.course.catalog import ROOT
    from grader.isolation import files

    try:
        source = files.read_regular(ROOT / "solutions" / f"{module}.py")
        reference = ast.parse(source)
        contract = _public_defs(reference)
        mutants = [files.read_regular(p) for p in sorted((ROOT / "solutions" / "mutants" / module).glob("[!_]*.py"))]
        both = []
        for literal in (False, True):
            fp = fingerprints(source, contract, literal)
            common = fp.hashes if mutants else frozenset()
            for mutant in mutants:
                common &= _as_graded(mutant, reference, fp, contract, literal)
            both += [fp, common]
        try:
            code = tuple(_code_bytes(source))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            code = ()
        return Question(contract, *both, code=code)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None


def against_reference(
    module: str, source: str | bytes, written: str | bytes | None = None, helpers: tuple[tuple[str, str], ...] = ()
) -> Match | None:
    """How much of the reference answer ``source`` has (None: no reference, or not Python).
    ``written``: the learner's file as written, where ``source`` is it with helpers inlined
    (:func:`with_helpers`): where it is :func:`opaque` is said at the file's own lines.
    ``helpers``: :func:`helpers_opaque` of the file, said after them (a helper file's lines)."""
    q = question(module)
    if q is None:
        return None
    try:
        mine = prints(source, q.contract, q.tight)
    except TooLarge as exc:
        return Match("reference", 0.0, note=str(exc))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    match = q.judge(mine, q.answer, "reference")
    if written is not None and written != source and (found := opaque(written)):
        try:  # the file's own comments and strings, which the inlined text no longer holds
            as_written = q.judge(prints(written, q.contract, q.tight), q.answer, "reference")
        except (TooLarge, SyntaxError, ValueError, RecursionError, MemoryError):
            as_written = match
        match = dataclasses.replace(max(match, as_written, key=lambda m: m.score), opaque=found)
    elif written is not None and written != source:  # what the inlined text built is a helper's: said there
        match = dataclasses.replace(match, opaque=())
    if helpers:
        match = dataclasses.replace(match, opaque=(*match.opaque, *helpers))
    return match


def near_copy(match: Match | None) -> bool:
    return match is not None and match.score >= THRESHOLD


def class_matches(
    module: str,
    answers: dict[str, str | bytes],
    given: str | bytes | None = None,
    helpers: dict[str, tuple[tuple[str, str], ...]] | None = None,
) -> dict[str, Match]:
    """Each student's best match (score, lines) among the reference and every classmate's answer
    to the same exercise (``answers``: student -> source). ``given``: the stub the class started
    from, part of the skeleton too (on the instructor's machine ``exercises/`` is the stub; in
    self-study it is the learner's answer, so :func:`question` never reads it). A student whose
    answer does not parse is left out. ``helpers``: student -> :func:`helpers_opaque` of their
    file, added to what is said opaque."""
    q = question(module) or Question(frozenset(), Fingerprints(), frozenset())
    stub = None
    if given is not None:
        try:
            stub = prints(given, q.contract, q.tight)
        except (SyntaxError, ValueError, RecursionError):
            pass
    theirs, best = {}, {}
    for student, source in answers.items():
        try:
            theirs[student] = prints(source, q.contract, q.tight)
        except TooLarge as exc:
            best[student] = Match("", 0.0, note=str(exc))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    for student, mine in theirs.items():
        candidates = [q.judge(mine, q.answer, "reference", stub)] if q.reference.lines else []
        candidates += [q.judge(mine, theirs[o], o, stub, classmate=True) for o in sorted(theirs) if o != student]
        best[student] = max(candidates, key=lambda m: m.score, default=Match("", 0.0, opaque=mine.opaque))
    for student, found in (helpers or {}).items():
        if found and student in best:
            best[student] = dataclasses.replace(best[student], opaque=(*best[student].opaque, *found))
    return best


# ---------------------------------------------------------------- helpers brought in (issue 27 S2)
INLINE_ROUNDS = 32  # calls inlined at most per module: bounded work whatever the answer holds


def _helper_defs(path: Path, tree: ast.Module, depth: int = 0) -> dict[str, ast.FunctionDef]:
    """The plain functions ``tree`` (the module at ``path``) defines or takes from its sibling
    modules (``from m import f``, ``from m import *``, ``import m`` as ``m.f``), by the name the
    module calls them; siblings are the learner's own files beside it (the grader's copy)."""
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    if depth > 3:
        return defs
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = {a.name: a.asname or a.name for a in node.names}
            theirs = _sibling_defs(path, node.module, depth)
            for name, fn in theirs.items():
                if "*" in names or name in names:
                    defs.setdefault(names.get(name, name), fn)
        elif isinstance(node, ast.Import):
            for a in node.names:
                for name, fn in _sibling_defs(path, a.name, depth).items():
                    defs.setdefault(f"{a.asname or a.name}.{name}", fn)
    return defs


def _sibling_defs(path: Path, module: str, depth: int) -> dict[str, ast.FunctionDef]:
    sibling = path.parent / f"{module}.py"
    if "." in module or sibling == path or not sibling.is_file() or sibling.is_symlink():
        return {}
    try:
        return _helper_defs(sibling, ast.parse(sibling.read_bytes()), depth + 1)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return {}


def _callee(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f"{f.value.id}.{f.attr}"
    return None


def _inlinable(fn: ast.FunctionDef) -> bool:
    """One return, last; no generator, no nested scope's tricks, plain positional parameters."""
    a = fn.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or not fn.body:
        return False
    if not (isinstance(fn.body[-1], ast.Return) and fn.body[-1].value is not None):
        return False
    inner = [n for s in fn.body for n in ast.walk(s)]
    scopes = (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal, ast.Lambda, ast.FunctionDef, ast.ClassDef)
    return not any(isinstance(n, scopes) for n in inner) and sum(isinstance(n, ast.Return) for n in inner) == 1


class _Inliner:
    """Puts each call of a helper where it is made: its parameters bound to the arguments, its
    body before the statement, its return value in the call's place (names prefixed per call, so
    none collides). A copy of the reference split into helpers is the reference again."""

    def __init__(self, helpers: dict[str, ast.FunctionDef], keep: frozenset[str]):
        self.helpers = {k: v for k, v in helpers.items() if k not in keep and _inlinable(v)}
        self.rounds = 0

    def body(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out = []
        for s in stmts:
            for field_name in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field_name, None), list) and not isinstance(
                    s, (ast.FunctionDef, ast.ClassDef)
                ):
                    setattr(s, field_name, self.body(getattr(s, field_name)))
            out += self.stmt(s)
        return out

    def stmt(self, s: ast.stmt) -> list[ast.stmt]:
        before = []
        while self.rounds < INLINE_ROUNDS:
            call = self._innermost(s)
            if call is None:
                break
            self.rounds += 1
            before += self._expand(call, s)
        return [*before, s]

    def _innermost(self, s: ast.stmt) -> ast.Call | None:
        """A helper's call in a simple statement whose arguments call no helper (a compound
        statement's own lines are left as they are; its body is inlined into statement by statement)."""
        if isinstance(s, (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.FunctionDef, ast.ClassDef)):
            return None
        found = None
        for node in ast.walk(s):
            if isinstance(node, (ast.Lambda, ast.comprehension)):
                return None  # its own scope: not inlined into
            if isinstance(node, ast.Call) and _callee(node) in self.helpers:
                if not any(
                    isinstance(n, ast.Call) and _callee(n) in self.helpers for a in node.args for n in ast.walk(a)
                ):
                    found = node
        return found

    def _expand(self, call: ast.Call, s: ast.stmt) -> list[ast.stmt]:
        fn = copy.deepcopy(self.helpers[_callee(call)])
        prefix = f"_inl{self.rounds}_"
        args = []
        for a in call.args:
            if isinstance(a, ast.Starred) and isinstance(a.value, (ast.Tuple, ast.List)):
                args += a.value.elts
            else:
                args.append(a)
        values = dict(zip((a.arg for a in fn.args.args), args, strict=False))  # fewer: defaults
        values.update({k.arg: k.value for k in call.keywords if k.arg})
        defaults = fn.args.defaults
        for p, d in zip([a.arg for a in fn.args.args][len(fn.args.args) - len(defaults) :], defaults, strict=True):
            values.setdefault(p, d)
        # a parameter given a variable is that variable (as in one function); other locals get the prefix
        rename = {p: v.id for p, v in values.items() if isinstance(v, ast.Name)}
        local = {a.arg for a in fn.args.args} | {
            n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and n.id in local:
                n.id = rename.get(n.id, prefix + n.id)
        values = {prefix + p: v for p, v in values.items() if p not in rename}
        bound = [ast.Assign(targets=[ast.Name(p, ast.Store())], value=v, lineno=s.lineno) for p, v in values.items()]
        result = fn.body[-1].value
        for parent in ast.walk(s):  # the call's place takes the return value
            for name, value in ast.iter_fields(parent):
                if value is call:
                    setattr(parent, name, result)
                elif isinstance(value, list):
                    for i, item in enumerate(value):
                        if item is call:
                            value[i] = result
                        elif isinstance(item, ast.Starred) and item.value is call and isinstance(result, ast.Tuple):
                            value[i : i + 1] = result.elts
        out = [*bound, *fn.body[:-1]]
        for n in out:
            for m in ast.walk(n):
                if hasattr(m, "lineno"):
                    m.lineno = m.end_lineno = s.lineno
        return out


def _contract_from_siblings(
    path: Path, tree: ast.Module, helpers: dict[str, ast.FunctionDef], contract: frozenset[str]
) -> bool:
    """A contract function the module takes from a sibling (``from m import f``, ``f = m.f``, ``f =
    importlib.import_module("m" + "").f``) is compared as if written here: its definition is put
    in ``tree`` under the contract's name (a re-export of a copy scored 0%). Whether any was."""
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    folder, aliases, taken = _Folder(tree), _imports(tree), False
    for node in list(tree.body):
        found: dict[str, ast.FunctionDef] = {}
        if isinstance(node, ast.ImportFrom):
            found = {a.asname or a.name: helpers.get(a.asname or a.name) for a in node.names}
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
                found = {node.targets[0].id: helpers.get(f"{value.value.id}.{value.attr}")}
            elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Call) and value.value.args:
                if _dotted(value.value.func, aliases) in _IMPORTERS:
                    try:
                        name = folder.value(value.value.args[0])
                    except (_Unknown, ValueError, TypeError, RecursionError, MemoryError):
                        name = None
                    if isinstance(name, str):
                        fn = _sibling_defs(path, name, 0).get(value.attr)
                        found = {node.targets[0].id: fn}
        for name, fn in found.items():
            if name in contract and name not in defined and fn is not None:
                fn = copy.deepcopy(fn)
                fn.name = name
                tree.body.append(fn)
                defined.add(name)
                taken = True
    return taken


def with_helpers(module_file: Path, module: str) -> bytes:
    """The answer as compared: its own source, or, where it calls helper functions of its own or
    of the sibling modules it imports, with each call inlined (``ast.unparse``: line numbers are
    then those of that text). Unparsable or too large: the source as it is."""
    source = module_file.read_bytes()
    q = question(module)
    try:
        tree = ast.parse(source)
        if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
            return source
        helpers = _helper_defs(module_file, tree)
        taken = _contract_from_siblings(module_file, tree, helpers, q.contract if q else frozenset())
        inliner = _Inliner(helpers, q.contract if q else frozenset())
        if not inliner.helpers and not taken:
            return source
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and (q is None or node.name in q.contract):
                node.body = inliner.body(node.body)
        if not inliner.rounds and not taken:
            return source
        tree.body = [n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n.name in inliner.helpers)]
        return ast.unparse(ast.fix_missing_locations(tree)).encode()
    except (SyntaxError, ValueError, RecursionError):
        return source


# ---------------------------------------------------------------- opaque code in the helpers (issue 27)
def _imported_siblings(path: Path, tree: ast.Module) -> list[Path]:
    """The learner's own files beside ``path`` that ``tree`` imports, anywhere in it (``import m``,
    ``from m import f``, ``from . import m``, ``import_module("m")``): each runs when imported."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = [node.module] if node.module else []
            names += base + [f"{node.module}.{a.name}" if node.module else a.name for a in node.names]
        elif (
            isinstance(node, ast.Call)
            and _dotted(node.func, {}) in _IMPORTERS | {"import_module"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.append(node.args[0].value)
    out: list[Path] = []
    for name in names:
        parts = [p for p in name.split(".") if p]
        for i in range(1, len(parts) + 1):  # a.b: a.py, a/__init__.py, a/b.py
            stem = path.parent.joinpath(*parts[:i])
            for candidate in (stem.with_suffix(".py"), stem / "__init__.py"):
                if candidate != path and candidate not in out and candidate.is_file() and not candidate.is_symlink():
                    out.append(candidate)
    return out


def helpers_opaque(module_file: Path, max_files: int = 64) -> tuple[tuple[str, str], ...]:
    """:func:`opaque` over the learner's own modules that ``module_file`` imports, and those they
    import in turn (the files :func:`with_helpers` reads, and any other sibling imported): each
    finding as ``("helper.py:7", "marshal.loads")``, the file named beside its line. The file
    itself is not scanned here (its own lines are :func:`opaque`'s)."""
    root = module_file.parent
    seen, queue, out = {module_file}, [module_file], []
    while queue and len(seen) <= max_files:
        path = queue.pop(0)
        try:
            source = path.read_bytes()
            tree = _parse(source)
        except (OSError, TooLarge, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if path != module_file:
            name = path.relative_to(root).as_posix() if root in path.parents else path.name
            out += [(f"{name}:{line}", what) for line, what in opaque(source)]
        for sibling in _imported_siblings(path, tree):
            if sibling not in seen:
                seen.add(sibling)
                queue.append(sibling)
    return tuple(out)
