"""The stubs as released: an answer that is one of them is "not implemented" without being run.

Every function of a stub in exercises/ raises NotImplementedError (tests/test_check_validity.py
grades each stub for real and sees it pass no key point), so grading an untouched stub only
proves that again: a check process, a learner process, often the check's own ground truth first,
for every exercise of a fresh learner's first ``make grade`` (3 min 51 s on 2 cores, issue 30).
Every mode that grades a file or an answer cell asks :func:`untouched` or :func:`is_release_stub`
first and answers :func:`untouched_result` where it holds: ``make grade`` (runner.grade, its
record included), ``grader batch`` and ``grader job`` (classroom.batch.run_job), Gradescope (the
same run_job) and the classroom's autograde and kernel (classroom.notebooks): the same verdict,
in the same words, in every mode.

*The stub as released* is a syntax tree: the stub's without its docstrings (comments and layout
never count, and a notebook's answer cell, released with the docstrings of one language, is the
stub too). It is compared with :data:`grader.course.released_stubs.TREES`, the trees recorded by
``make stubs``, never with the exercises/ folder itself: that folder is the learner's work.
Any change to the code (an answer, a changed body, a top-level statement or import added) is
another tree, graded for real. So is an untouched stub whose folder holds a module that is not
an exercise's (its imports, or a library's, could find that module first: learner code).
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

from grader.course import catalog
from grader.engine.results import ExerciseResult, KeyPointResult
from grader.i18n import N_, _

# what each key point of an untouched stub says, in every mode
UNTOUCHED = N_(
    "unchanged from the stub as released, so nothing was run (each of its functions raises NotImplementedError)"
)
SOURCE_CAP = 1 << 20  # bytes: a larger file is no stub (it is parsed by nobody here, graded for real)


def _without_docstrings(tree: ast.Module) -> ast.Module:
    """The module, its functions and classes without their docstrings (a cell released in one
    language is the stub, whose docstrings carry both)."""
    for node in [tree, *ast.walk(tree)]:
        if not isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            if isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


def _canonical(node) -> str:
    """``ast.dump`` without the fields a Python version leaves empty (3.12's ``type_params``): the
    same text for the same code from one Python to the next."""
    if isinstance(node, ast.AST):
        fields = ((f, _canonical(getattr(node, f, None))) for f in node._fields)
        return f"{type(node).__name__}(" + ",".join(f"{f}={v}" for f, v in fields if v not in ("None", "[]")) + ")"
    if isinstance(node, list):
        return "[" + ",".join(map(_canonical, node)) + "]"
    return repr(node)


def tree_of(source: str | bytes) -> str | None:
    """The SHA-256 of ``source``'s syntax tree without docstrings; None where it does not parse."""
    if len(source) > SOURCE_CAP:
        return None
    try:
        text = _canonical(_without_docstrings(ast.parse(source)))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return hashlib.sha256(text.encode()).hexdigest()


def released_trees() -> dict[str, str]:
    from grader.course.released_stubs import TREES

    return TREES


def is_release_stub(source: str | bytes, ex: catalog.Exercise) -> bool:
    """``source`` is ``ex``'s stub as released, comments, layout and docstrings aside."""
    recorded = released_trees().get(ex.module)
    return recorded is not None and tree_of(source) == recorded


def _imported(source: str | bytes) -> set[str] | None:
    """The top-level names of every module ``source`` imports, anywhere in it; None where one is relative."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                return None
            names.add((node.module or "").partition(".")[0])
    return names


def untouched(ex: catalog.Exercise, module_file: Path) -> bool:
    """``module_file`` is ``ex``'s stub as released, and running it would run nothing of the
    learner's: a regular file (a link, a FIFO, a file too large is for the runner to refuse), its
    folder's other modules all exercises' (a learner's ``numpy.py`` there would be imported first),
    none of them imported by the stub."""
    from grader.isolation import files

    try:
        source = files.read_regular(module_file, SOURCE_CAP)
        siblings = {p.stem for p in Path(module_file).parent.glob("*.py")} - {Path(module_file).stem}
    except (OSError, files.Refused):
        return False
    if not is_release_stub(source, ex):
        return False
    if not siblings <= {*catalog.BY_MODULE, "__init__"}:
        return False
    imported = _imported(source)
    return imported is not None and not imported & siblings


def untouched_result(ex: catalog.Exercise) -> ExerciseResult:
    """Every key point "not implemented", said as :data:`UNTOUCHED`: nothing ran. A key point only a
    GPU verifies is "not verifiable" on a machine without CUDA, whatever the answer: as its check
    says it there (grader.engine.plugin.needs_cuda), left out of the counts as before."""
    from grader.engine.cache import has_cuda

    gpu_only = {} if has_cuda() else cuda_only(ex)
    return ExerciseResult(
        ex.id,
        "graded",
        [
            KeyPointResult(kp.id, "not_verifiable", gpu_only[kp.id])
            if kp.id in gpu_only
            else KeyPointResult(kp.id, "not_implemented", _(UNTOUCHED))
            for kp in ex.key_points
        ],
    )


def cuda_only(ex: catalog.Exercise) -> dict:
    """Key point -> what its check says without CUDA, for each ``@needs_cuda(...)`` test of
    ``ex``'s check file (read, not run: its reason a string, or the plugin's own)."""
    try:
        tree = ast.parse(ex.check_file.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    out = {}
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
            continue
        for dec in node.decorator_list:
            func = dec.func if isinstance(dec, ast.Call) else dec
            if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) != "needs_cuda":
                continue
            reason = dec.args[0] if isinstance(dec, ast.Call) and dec.args else None
            if isinstance(reason, ast.Call) and reason.args:  # _("...")
                reason = reason.args[0]
            text = reason.value if isinstance(reason, ast.Constant) and isinstance(reason.value, str) else None
            out[node.name.removeprefix("test_")] = _(text) if text else _(NEEDS_CUDA)
    return out


NEEDS_CUDA = N_("needs a CUDA GPU: not verifiable on this machine")  # grader.engine.plugin.needs_cuda's own


def write_released(path: Path | None = None) -> bool:
    """``make stubs``: record each stub's tree (:data:`grader.course.released_stubs.TREES`) from
    exercises/; True when the file changed."""
    path = path or Path(catalog.ROOT / "grader" / "course" / "released_stubs.py")
    text = render_released()
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def render_released() -> str:
    """released_stubs.py as ``make stubs`` writes it from the stubs in exercises/."""
    rows = []
    for ex in catalog.CATALOG:
        stub = catalog.ROOT / "exercises" / f"{ex.module}.py"
        if stub.is_file():
            rows.append(f'    "{ex.module}": "{tree_of(stub.read_bytes())}",\n')
    return RELEASED_HEAD + "TREES = {\n" + "".join(sorted(set(rows))) + "}\n"


RELEASED_HEAD = '''"""Each stub's syntax tree as released (exercises/<module>.py without its docstrings), as
grader.engine.stubs.tree_of hashes it: an answer with this tree is the untouched stub, not run.

Written by ``make stubs`` (grader.engine.stubs.write_released), never by hand; tests/test_stubs.py
fails when it is not what the stubs in exercises/ give.
"""

'''
