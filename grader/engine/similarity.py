"""How much of an answer is someone else's code: the reference answer's, or a classmate's.

An exact copy (the same syntax tree, comments and layout aside) is decided in
:func:`grader.engine.runner._is_the_reference`. This module finds the copies that are not exact,
the way MOSS-style checks do: each module is **normalised** (docstrings, ``pass`` and dead
statements dropped; imports sorted and their aliases replaced by what they import; the names a
module binds itself, other than the exercise's contract names, renamed to canonical ones per
function; constants replaced by their type; independent statements put in one canonical order;
top-level definitions sorted), read as a stream of syntax-tree tokens, and its k-grams are
**winnowed** into fingerprints (Schleimer, Wilkerson, Aiken, "Winnowing: local algorithms for
document fingerprinting", SIGMOD 2003: the smallest hash of each window, so any match of at least
``WINDOW + K - 1`` tokens shares a fingerprint).

Fingerprints of the question's **skeleton** are weighed down (:data:`SKELETON_WEIGHT`): those of
the stub the learner starts from, and those the reference shares with every one of its mutants
(``solutions/mutants/<module>/``: different wrong answers to the same question, so what they all
have in common is what any answer has). Two honest answers of a tiny exercise then do not
look like copies because they share the signature and the obvious return.

:func:`compare` gives a :class:`Match`: a score in [0, 1] (the weighted share of the smaller
module's fingerprints found in the other) and the lines of each side that match. A score of
:data:`THRESHOLD` or more is a *near copy*. Courses decide what follows: self-study reports it
beside the verdict and keeps the credit (docs/security.md), the classroom and ``grader batch``
report every answer's best match among the reference and the classmates to the instructor
(:func:`class_matches`).
"""

from __future__ import annotations

import ast
import functools
import hashlib
from dataclasses import dataclass, field

K = 12  # tokens per k-gram: about one statement
WINDOW = 4  # winnowing window: a match of K + WINDOW - 1 = 15 tokens or more is always seen
SKELETON_WEIGHT = 0.1  # what one fingerprint of the question's skeleton weighs, against 1
MIN_OWN = 6  # fewer fingerprints beyond the skeleton than this: too little code to call a copy
THRESHOLD = 0.6  # a near copy from this score on (tests/test_similarity.py measures both sides of it)
# The learner's file is read in the grader's own process: bounded work whatever it holds. The
# largest reference answer has under 700 syntax nodes; a run of simple statements longer than
# RUN_CAP is put in order RUN_CAP at a time.
MAX_NODES = 100_000
RUN_CAP = 64


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

    def to_dict(self) -> dict:
        return {
            "against": self.against,
            "score": round(self.score, 3),
            "lines": spans(self.lines),
            "their_lines": spans(self.their_lines),
            **({"note": self.note} if self.note else {}),
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
    """Blocks cleaned and ordered (see :func:`_live`, :func:`_canonical_order`); a function's dead stores dropped."""

    def __init__(self):
        self.params: list[dict[str, int]] = [{}]

    def generic_visit(self, node):
        function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        if function:
            self.params.append({a.arg: i for i, a in enumerate(ast.walk(node.args)) if isinstance(a, ast.arg)})
        super().generic_visit(node)
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                block = _live(block)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and name == "body":
                    block = _drop_dead_stores(block, node, set())
                setattr(node, name, _canonical_order(block, self.params[-1]))
        if function:
            self.params.pop()
        return node


def _tokens(source: str | bytes, contract: frozenset[str]) -> list[tuple[str, int]]:
    """The normalised module as (token, source line) pairs."""
    module = ast.parse(source)
    size = sum(1 for _ in ast.walk(module))
    if size > MAX_NODES:
        raise TooLarge(f"not compared: {size} syntax nodes, more than the {MAX_NODES} compared")
    aliases = _imports(module)
    module = _Normaliser().visit(module)
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
        _emit(stmt, out, names, contract, stmt.lineno)
    return out


def _emit(node: ast.AST, out: list, names: dict[str, str], contract: frozenset[str], line: int) -> None:
    """Pre-order tokens of ``node``; inside a function its own names become v0, v1, ... by first use."""
    line = getattr(node, "lineno", line)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        names = dict(names)
        local = [a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)]
        first = _first_uses(node)
        local += sorted(_names(node, ast.Store) - set(local), key=lambda n: first.get(n, (0, 0)))
        names.update({n: f"v{i}" for i, n in enumerate(dict.fromkeys(local)) if n not in contract})
        if not isinstance(node, ast.Lambda):
            out.append((f"def {names.get(node.name, node.name)}", line))
            for d in node.decorator_list:
                _emit(d, out, names, contract, line)
        _emit(node.args, out, names, contract, line)  # the return annotation left out
        for part in node.body if isinstance(node.body, list) else [node.body]:
            _emit(part, out, names, contract, line)
        return
    if isinstance(node, ast.expr_context):
        return
    if isinstance(node, ast.JoinedStr):  # an f-string is a message: a constant, however it is worded
        out.append(("const str", line))
        return
    if isinstance(node, ast.arg):  # annotations are left out: they do not change what runs
        out.append((f"arg {names.get(node.arg, node.arg)}", line))
        return
    if isinstance(node, ast.Name):
        token = names.get(node.id, node.id)
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
                _emit(child, out, names, contract, line)
        return
    elif isinstance(node, ast.ClassDef):
        token = f"class {names.get(node.name, node.name)}"
    else:
        token = type(node).__name__
    out.append((token, line))
    for child in ast.iter_child_nodes(node):
        _emit(child, out, names, contract, line)


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


def fingerprints(source: str | bytes, contract: frozenset[str] = frozenset()) -> Fingerprints:
    """The winnowed fingerprints of a module (SyntaxError and ValueError as :func:`ast.parse` raises them).
    ``contract``: the names the exercise asks for (kept as they are; every answer has them)."""
    toks = _tokens(source, contract)
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


# ---------------------------------------------------------------- the reference and its skeleton
@dataclass(frozen=True)
class Question:
    contract: frozenset[str]
    reference: Fingerprints
    skeleton: frozenset[int]


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


def _as_graded(mutant: bytes, reference: ast.Module, prints: Fingerprints, contract: frozenset[str]) -> frozenset[int]:
    """A mutant's fingerprints as the module it stands for: most mutants replace a function or two
    and take the rest of the reference by ``from solutions.<module> import *``."""
    tree = ast.parse(mutant)
    own = fingerprints(mutant, contract).hashes
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
        prints = fingerprints(source, contract)
        mutants = sorted((ROOT / "solutions" / "mutants" / module).glob("[!_]*.py"))
        common = prints.hashes if mutants else frozenset()
        for path in mutants:
            common &= _as_graded(files.read_regular(path), reference, prints, contract)
        return Question(contract, prints, common)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None


def against_reference(module: str, source: str | bytes) -> Match | None:
    """How much of the reference answer ``source`` has (None: no reference, or not Python)."""
    q = question(module)
    if q is None:
        return None
    try:
        mine = fingerprints(source, q.contract)
    except TooLarge as exc:
        return Match("reference", 0.0, note=str(exc))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return compare(mine, q.reference, "reference", q.skeleton)


def near_copy(match: Match | None) -> bool:
    return match is not None and match.score >= THRESHOLD


def class_matches(module: str, answers: dict[str, str | bytes], given: str | bytes | None = None) -> dict[str, Match]:
    """Each student's best match (score, lines) among the reference and every classmate's answer
    to the same exercise (``answers``: student -> source). ``given``: the stub the class started
    from, part of the skeleton too (on the instructor's machine ``exercises/`` is the stub; in
    self-study it is the learner's answer, so :func:`question` never reads it). A student whose
    answer does not parse is left out."""
    q = question(module) or Question(frozenset(), Fingerprints(), frozenset())
    skeleton = q.skeleton
    if given is not None:
        try:
            skeleton |= fingerprints(given, q.contract).hashes
        except (SyntaxError, ValueError, RecursionError):
            pass
    prints, best = {}, {}
    for student, source in answers.items():
        try:
            prints[student] = fingerprints(source, q.contract)
        except TooLarge as exc:
            best[student] = Match("", 0.0, note=str(exc))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    for student, mine in prints.items():
        candidates = [compare(mine, q.reference, "reference", skeleton)] if q.reference.lines else []
        candidates += [compare(mine, prints[o], o, skeleton) for o in sorted(prints) if o != student]
        best[student] = max(candidates, key=lambda m: m.score, default=Match("", 0.0))
    return best
