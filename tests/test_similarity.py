"""Copies that are not exact (issue 27 §2, issue 28): grader/engine/similarity.py.

Each disguise a copier uses is detected above the threshold; answers written independently stay
below it, and the rate of those that do not is measured here (:func:`test_false_positive_rate`).
The exact transformations (renaming, imports, order, dead statements) must normalise to the same
module (score 1.0): each test fails without its normalisation step."""

from __future__ import annotations

import ast
import textwrap

import pytest

from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import similarity as sim
from tests.conftest import VARIANTS_DIR

A3, C2 = catalog.get("A3"), catalog.get("C2")


def reference(ex) -> str:
    return (ROOT / "solutions" / f"{ex.module}.py").read_text()


def score(ex, source: str) -> float:
    return sim.against_reference(ex.module, source).score


RENAMED_A3 = """
def broadcast_shape(p, q):
    width = max(len(p), len(q))
    p = (1,) * (width - len(p)) + tuple(p)
    q = (1,) * (width - len(q)) + tuple(q)
    dims = []
    for k, (u, w) in enumerate(zip(p, q, strict=True)):
        if u != w and 1 not in (u, w):
            raise ValueError(f"no: {k}")
        dims.append(w if u == 1 else u)
    return tuple(dims)
"""


def test_renamed_locals_and_changed_constants_are_the_reference():
    assert score(A3, RENAMED_A3) == 1.0


def test_swapped_and_aliased_imports_and_changed_constants_are_the_reference():
    source = reference(C2).replace("import math\nimport statistics\n", "import statistics as st\nimport math\n")
    source = source.replace("statistics.", "st.").replace("1.25 * norms[0]", "1.3 * norms[0]")  # and a constant
    assert source != reference(C2) and score(C2, source) == 1.0


def test_reordered_independent_statements_and_definitions_are_the_reference():
    source = reference(C2)
    tree_order = source.index("def first_loss_verdict"), source.index("def check_loss_shapes")
    first = source[tree_order[0] : tree_order[1]]
    source = source.replace(first, "") + "\n\n" + first  # a definition moved to the end
    a3 = RENAMED_A3.replace(  # two independent statements swapped
        "    p = (1,) * (width - len(p)) + tuple(p)\n    q = (1,) * (width - len(q)) + tuple(q)\n",
        "    q = (1,) * (width - len(q)) + tuple(q)\n    p = (1,) * (width - len(p)) + tuple(p)\n",
    )
    assert a3 != RENAMED_A3 and score(A3, a3) == 1.0
    assert score(C2, source) == 1.0


def test_dead_statements_are_left_out():
    dead = RENAMED_A3.replace(
        "    dims = []\n",
        "    dims = []\n    unused = 42\n    if False:\n        dims = None\n    'a bare string'\n",
    ).replace("    return tuple(dims)\n", "    return tuple(dims)\n    print('never')\n")
    dead += "\nimport os\nANSWERED_BY = 'me'\nif __name__ == '__main__':\n    print(broadcast_shape((1,), (2,)))\n"
    assert score(A3, dead) == 1.0


def disguised(exercise_id: str, *edits: tuple[str, str]) -> tuple[object, str]:
    """The reference of ``exercise_id`` with each (old, new) edit made; each edit must apply."""
    ex = catalog.get(exercise_id)
    source = reference(ex)
    for old, new in edits:
        assert old in source, (exercise_id, old)
        source = source.replace(old, new)
    return ex, source


# Issue 27 §2 follow-up: renamed copies that change how values are named or spelled, not what they
# compute. Each normalises to the reference (score 1.0) on A3 and two other exercises, and fails
# without its step in similarity.py.
DISGUISES = {
    "a new name instead of rebinding": [
        (
            "A3",
            ("    a = (1,) * (n - len(a)) + tuple(a)", "    lhs = (1,) * (n - len(a)) + tuple(a)"),
            ("    b = (1,) * (n - len(b)) + tuple(b)", "    rhs = (1,) * (n - len(b)) + tuple(b)"),
            ("zip(a, b, strict=True)", "zip(lhs, rhs, strict=True)"),
            ("shapes {a} and {b}", "shapes {lhs} and {rhs}"),
        ),
        (
            "C2",
            ("    gap = first_loss - math.log(vocab_size)", "    first_loss = first_loss - math.log(vocab_size)"),
            (
                '"too_high" if gap > 1 else "too_low" if gap < -1',
                '"too_high" if first_loss > 1 else "too_low" if first_loss < -1',
            ),
        ),
        (
            "P4",
            (
                '    prompt = tokenizer(_prompt(question), add_special_tokens=False)["input_ids"]',
                '    question = tokenizer(_prompt(question), add_special_tokens=False)["input_ids"]',
            ),
            ("list(prompt) + list(response)", "list(question) + list(response)"),
            ("[IGNORE_INDEX] * len(prompt)", "[IGNORE_INDEX] * len(question)"),
        ),
    ],
    "augmented assignment written out": [
        ("A1", ("        n += 1\n        chars += len", "        n = n + 1\n        chars = chars + len")),
        ("A2", ("            dim += n\n", "            dim = dim + n\n")),
        ("C7", ("            documents += 1", "            documents = documents + 1")),
    ],
    "a helper extracted or inlined": [
        (
            "A3",
            ("        out.append(y if x == 1 else x)", "        dim = y if x == 1 else x\n        out.append(dim)"),
        ),
        (
            "C2",
            ("    median = statistics.median(grad_norms)\n", ""),
            ("x > 5 * median", "x > 5 * statistics.median(grad_norms)"),
        ),
        (
            "P4",
            ("    config = LoraConfig(", "    return get_peft_model(model, LoraConfig("),
            ('task_type="CAUSAL_LM")\n    return get_peft_model(model, config)', 'task_type="CAUSAL_LM"))'),
        ),
    ],
    "range(len(...)) for enumerate": [
        (  # two sequences indexed: the items of zip()
            "A3",
            (
                "    for i, (x, y) in enumerate(zip(a, b, strict=True)):\n",
                "    for i in range(len(a)):\n        x, y = a[i], b[i]\n",
            ),
        ),
        (
            "P4",
            ("    for i, e in enumerate(examples):\n", "    for i in range(len(examples)):\n        e = examples[i]\n"),
        ),
        (
            "A2",
            ("    for item in index:\n", "    for k in range(len(index)):\n"),
            ("        if item is None:", "        if index[k] is None:"),
            ("        elif item is Ellipsis:", "        elif index[k] is Ellipsis:"),
            (
                "isinstance(item, slice):\n            out.append(len(range(*item.indices(",
                "isinstance(index[k], slice):\n            out.append(len(range(*index[k].indices(",
            ),
            ("<= item < shape[dim]", "<= index[k] < shape[dim]"),
        ),
        ("A10", ('float(sum(op["self_ms"] for op in ops))', 'float(sum(ops[i]["self_ms"] for i in range(len(ops))))')),
    ],
    "comparison operands swapped": [
        ("A3", ("y if x == 1 else x", "y if 1 == x else x")),
        (
            "C2",
            ('"too_high" if gap > 1 else "too_low" if gap < -1', '"too_high" if 1 < gap else "too_low" if -1 > gap'),
        ),
        ("A1", ('if len(rec["text"]) >= min_chars:', 'if min_chars <= len(rec["text"]):')),
    ],
    "if/else branches swapped, the test negated": [
        ("A3", ("y if x == 1 else x", "x if x != 1 else y")),
        ("A10", ("heavy / device if device > 0 else 0.0", "0.0 if not device > 0 else heavy / device")),
        (
            "A7",
            (
                "    if checkpointing:\n        per_token = d ",
                "    if not checkpointing:\n        per_token = 6 * d + 3 * d_ff ",
            ),
            ("    else:\n        per_token = 6 * d + 3 * d_ff ", "    else:\n        per_token = d "),
        ),
    ],
}


@pytest.mark.parametrize(
    "disguise, case",
    [(name, case) for name, cases in DISGUISES.items() for case in cases],
    ids=lambda v: v if isinstance(v, str) else v[0],
)
def test_a_disguise_of_the_reference_is_the_reference(disguise, case):
    ex, source = disguised(*case)
    assert source != reference(ex)
    compile(source, ex.module, "exec")  # the disguise is still Python
    assert score(ex, source) == pytest.approx(1.0), disguise


def test_every_disguise_is_tried_on_a3_and_two_other_exercises():
    for name, cases in DISGUISES.items():
        exercises = {case[0] for case in cases}
        assert len(exercises) >= 3 and ("A3" in exercises or name in NOT_IN_A3), name


NOT_IN_A3 = {"augmented assignment written out"}  # A3's reference has none


def test_a_long_chain_of_values_read_once_is_compared():
    """A value read once is put where it is read, up to INLINE_NODES: 3000 of them in a chain
    would otherwise nest 3000 deep (RecursionError: not compared) after quadratic work."""
    chain = "def broadcast_shape(a, b):\n" + "".join(f"    a = a + ({i},)\n" for i in range(3000)) + "    return a\n"
    assert sim.fingerprints(chain, A3_CONTRACT).hashes


A3_CONTRACT = frozenset({"broadcast_shape"})


@pytest.mark.parametrize("ex", catalog.available(), ids=lambda ex: ex.id)
def test_the_reference_plus_one_line_is_a_near_copy(ex):
    """The issue's copy: the reference and one live line of the copier's own."""
    m = sim.against_reference(ex.module, reference(ex) + "\n\nprint('my own answer', len(str(3)))\n")
    assert sim.near_copy(m), m
    assert m.lines and m.their_lines  # the matching lines are reported


def _run_from_string(text: str, how: str) -> str:
    """The reference run from a string built of constants, as a cheater's attempts did (issue 27)."""
    import base64
    import codecs
    import zlib

    packed = base64.b85encode(zlib.compress(text.encode())).decode()
    return {
        "exec": f"exec({text!r})\n",
        "exec compile": f"exec(compile({text!r}, 'mine', 'exec'))\n",
        "a name bound to it": f"SOURCE = {text!r}\nexec(SOURCE)\n",
        "zlib + b85": f"import base64, zlib\nexec(zlib.decompress(base64.b85decode({packed!r})).decode())\n",
        "aliased, in pieces": (
            f"import base64 as b, zlib as z\nA = {packed[:40]!r}\nB = A + {packed[40:]!r}\n"
            "exec(z.decompress(b.b85decode(B)))\n"
        ),
        "rot13 reversed": (
            f"import codecs\nexec(codecs.decode({codecs.encode(text, 'rot13')[::-1]!r}[::-1], 'rot13'))\n"
        ),
    }[how]


RUN_FROM_STRING = ["exec", "exec compile", "a name bound to it", "zlib + b85", "aliased, in pieces", "rot13 reversed"]


@pytest.mark.parametrize("how", RUN_FROM_STRING)
@pytest.mark.parametrize("exercise_id", ["A3", "P1", "C7"])
def test_the_reference_run_from_a_string_is_the_reference(exercise_id, how):
    """Such a copy has no syntax tree of its own: it scored 0.0 before what it runs was folded in."""
    ex = catalog.get(exercise_id)
    source = _run_from_string(reference(ex), how)
    assert sim.near_copy(sim.against_reference(ex.module, source)), how
    matches = sim.class_matches(ex.module, {"ada": reference(ex) + "\nMINE = 1\n", "bob": source})
    assert sim.near_copy(matches.get("bob") or matches.get("ada")), matches


def test_code_run_from_a_string_that_is_not_constant_is_left_as_written():
    built = "import sys\nexec(sys.argv[1])\ndef broadcast_shape(a, b):\n    return a\n"
    assert sim.unfolded(built) == built
    bomb = (
        "import zlib\nexec(zlib.decompress("
        + repr(__import__("zlib").compress(b"#" * (sim.MAX_UNFOLDED + 10)))
        + "))\n"
    )
    assert sim.unfolded(bomb) == bomb  # a string that would grow past MAX_UNFOLDED stays a string


def test_a_copy_of_a_classmate_is_found_and_named():
    honest = {f"s{i}": src for i, src in enumerate(HONEST_A3)}
    copied = HONEST_A3[1].replace("shape_a", "first").replace("shape_b", "second") + "\nNOTE = print('mine')\n"
    best = sim.class_matches(A3.module, {**honest, "copier": copied})
    assert best["copier"].against == "s1" and best["copier"].score >= sim.THRESHOLD
    assert best["s1"].against == "copier"
    assert all(best[s].score < sim.THRESHOLD for s in honest if s != "s1"), best


# Right answers to A3 written from the stub's contract alone, in different ways.
HONEST_A3 = [
    textwrap.dedent(s)
    for s in (
        """
        from itertools import zip_longest

        def broadcast_shape(shape_a, shape_b):
            result = []
            for da, db in zip_longest(reversed(shape_a), reversed(shape_b), fillvalue=1):
                if da == db or db == 1:
                    result.append(da)
                elif da == 1:
                    result.append(db)
                else:
                    raise ValueError("incompatible shapes")
            return tuple(reversed(result))
        """,
        """
        def broadcast_shape(shape_a, shape_b):
            longer = max(len(shape_a), len(shape_b))
            padded_a = [1] * (longer - len(shape_a)) + list(shape_a)
            padded_b = [1] * (longer - len(shape_b)) + list(shape_b)
            out = []
            for i in range(longer):
                x, y = padded_a[i], padded_b[i]
                if x == 1:
                    out.append(y)
                elif y == 1 or x == y:
                    out.append(x)
                else:
                    raise ValueError(f"cannot broadcast dim {i}: {x} and {y}")
            return tuple(out)
        """,
        """
        def _dim(x, y):
            if x != 1 and y != 1 and x != y:
                raise ValueError((x, y))
            return y if x == 1 else x

        def broadcast_shape(a, b):
            a, b = tuple(a), tuple(b)
            if len(a) < len(b):
                a = (1,) * (len(b) - len(a)) + a
            else:
                b = (1,) * (len(a) - len(b)) + b
            return tuple(_dim(x, y) for x, y in zip(a, b))
        """,
        """
        def broadcast_shape(a, b):
            i, j = len(a) - 1, len(b) - 1
            shape = []
            while i >= 0 or j >= 0:
                x = a[i] if i >= 0 else 1
                y = b[j] if j >= 0 else 1
                if x != y and 1 not in (x, y):
                    raise ValueError("shapes do not broadcast")
                shape.insert(0, max(x, y) if 0 not in (x, y) else 0)
                i, j = i - 1, j - 1
            return tuple(shape)
        """,
    )
]

# Valid variants (solutions/variants/) that are the reference's own function with a line or two
# changed (see `diff` against solutions/): near copies by construction, not independent answers.
EDITS_OF_THE_REFERENCE = {
    "c2_loss_triage/clip_first.py": "missing_line with its first two ifs swapped",
    "c2_loss_triage/zero_grad_before_clip.py": "missing_line with two ifs reordered",
    "x3_autocast_dtypes/default_cpu_dtype.py": "the reference without dtype=torch.bfloat16",
}


def test_false_positive_rate():
    """Independent answers above the threshold, out of all: the honest A3 answers against the
    reference and each other, and the valid variants that are not edits of the reference."""
    honest = [sim.against_reference(A3.module, s) for s in HONEST_A3]
    honest += list(sim.class_matches(A3.module, {str(i): s for i, s in enumerate(HONEST_A3)}).values())
    variants = {
        f"{p.parent.name}/{p.name}": sim.against_reference(p.parent.name, p.read_text())
        for p in sorted(VARIANTS_DIR.glob("*/[!_]*.py"))
    }
    independent = [m for name, m in variants.items() if name not in EDITS_OF_THE_REFERENCE] + honest
    flagged = [m for m in independent if sim.near_copy(m)]
    assert not flagged, flagged  # measured: 0 of 23 (15 variants, 4 honest answers, 4 class matches)
    assert len(independent) == 23
    assert all(sim.near_copy(variants[name]) for name in EDITS_OF_THE_REFERENCE)


def test_too_little_code_is_nobodys_copy():
    stub = (ROOT / "exercises" / f"{A3.module}.py").read_text()
    assert score(A3, stub) == 0.0
    assert score(A3, "def broadcast_shape(a, b):\n    return tuple(a)\n") == 0.0


# Issue 28: honest short answers to tightly asked questions (X2's four lines scored 92% against
# the reference), written from the stubs' contracts alone; the first X2 answer normalises to the
# reference exactly (1.0 before the literal check).
HONEST_TIGHT = {
    "X2": [
        """
        import torch
        from torch.nn.functional import mse_loss

        def naive_mse(pred, target):
            err = pred - target
            return float((err ** 2).mean()), tuple(err.shape)

        def safe_mse(pred, target):
            if pred.shape != target.shape:
                raise ValueError("pred and target shapes differ")
            return mse_loss(pred, target)
        """,
        """
        import torch

        def naive_mse(pred, target):
            diff = pred - target
            return float(diff.pow(2).mean()), tuple(diff.shape)

        def safe_mse(pred, target):
            if pred.shape != target.shape:
                raise ValueError(f"{pred.shape} vs {target.shape}")
            return torch.mean((pred - target) ** 2)
        """,
        """
        import torch

        def naive_mse(pred, target):
            d = pred - target
            return ((d * d).mean().item(), tuple(d.shape))

        def safe_mse(pred, target):
            if pred.shape != target.shape:
                raise ValueError("shapes differ")
            return ((pred - target) ** 2).mean()
        """,
    ],
    "X4": [
        """
        def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
            seconds = n_params * bytes_per_param / bandwidth
            return 1000 * seconds

        def decode_step_ms(n_params, bytes_per_param, batch, peak_flops, bandwidth):
            compute = 2 * n_params * batch / peak_flops
            memory = n_params * bytes_per_param / bandwidth
            return 1000 * max(compute, memory)
        """,
        """
        def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
            total_bytes = n_params * bytes_per_param
            return total_bytes / bandwidth * 1000.0

        def decode_step_ms(n_params, bytes_per_param, batch, peak_flops, bandwidth):
            t_compute = 2.0 * n_params * batch / peak_flops
            t_memory = n_params * bytes_per_param / bandwidth
            return max(t_compute, t_memory) * 1000.0
        """,
    ],
    "B5": [
        """
        import torch

        def ddp_per_gpu_bytes(replica_state_bytes, activation_bytes, n_gpus):
            total = replica_state_bytes + activation_bytes
            return total

        def effective_batch(per_gpu_batch, n_gpus, accumulation_steps):
            return n_gpus * per_gpu_batch * accumulation_steps

        def allreduce_grads(rank_grads):
            grads = list(rank_grads)
            return sum(grads) / len(grads)

        def launch_command(n_gpus, script):
            return "torchrun --nproc_per_node " + str(n_gpus) + " " + script
        """,
        """
        import torch

        def ddp_per_gpu_bytes(replica_state_bytes, activation_bytes, n_gpus):
            return activation_bytes + replica_state_bytes

        def effective_batch(per_gpu_batch, n_gpus, accumulation_steps):
            per_step = per_gpu_batch * n_gpus
            return per_step * accumulation_steps

        def allreduce_grads(rank_grads):
            return torch.mean(torch.stack([g for g in rank_grads]), dim=0)

        def launch_command(n_gpus, script):
            return f"torchrun --standalone --nproc_per_node={n_gpus} {script}"
        """,
    ],
}
HONEST_TIGHT = {k: [textwrap.dedent(s) for s in v] for k, v in HONEST_TIGHT.items()}


def test_a_tight_question_is_one_whose_reference_has_little_of_its_own():
    tight = {ex.id for ex in catalog.available() if sim.question(ex.module).tight}
    assert set(HONEST_TIGHT) <= tight and "A3" not in tight and "C2" not in tight, tight
    q = sim.question(catalog.get("X2").module)
    assert len(q.reference.hashes - q.skeleton) < sim.MIN_OPEN


@pytest.mark.parametrize("exercise_id", HONEST_TIGHT)
def test_honest_short_answers_to_a_tight_question_are_no_near_copies(exercise_id):
    """Against the reference and against each other (the classroom's comparison)."""
    module = catalog.get(exercise_id).module
    answers = {str(i): s for i, s in enumerate(HONEST_TIGHT[exercise_id])}
    alone = {i: sim.against_reference(module, s) for i, s in answers.items()}
    assert not any(sim.near_copy(m) for m in alone.values()), alone
    best = sim.class_matches(module, answers, given=(ROOT / "exercises" / f"{module}.py").read_text())
    assert not any(sim.near_copy(m) for m in best.values()), best


@pytest.mark.parametrize("exercise_id", HONEST_TIGHT)
def test_a_copy_as_written_of_a_tight_answer_is_a_near_copy(exercise_id):
    """The reference with its definitions reversed and a line added, and a classmate's answer
    with a line added: still near copies, and the classmate named."""
    ex = catalog.get(exercise_id)
    tree = ast.parse(reference(ex))
    tree.body.reverse()
    reordered = ast.unparse(tree) + "\nprint('mine')\n"
    assert sim.near_copy(sim.against_reference(ex.module, reordered))
    honest = HONEST_TIGHT[exercise_id][0]
    best = sim.class_matches(ex.module, {"honest": honest, "copier": honest + "\nprint('mine')\n"})
    assert best["copier"].against == "honest" and sim.near_copy(best["copier"]), best


def test_a_renamed_copy_of_a_tight_answer_is_not_told_from_an_honest_one():
    """The limit, said in docs/security.md: normalised, a renamed X2 copy is the reference (1.0),
    as the first honest answer is; as written it is not, so it is not flagged."""
    ex = catalog.get("X2")
    renamed = reference(ex).replace("diff", "err").replace("shape mismatch", "bad shapes")
    q = sim.question(ex.module)
    assert sim.compare(sim.fingerprints(renamed, q.contract), q.reference, "reference", q.skeleton).score == 1.0
    assert not sim.near_copy(sim.against_reference(ex.module, renamed))


def test_the_skeleton_is_weighed_down():
    """What the reference shares with every mutant counts SKELETON_WEIGHT, not 1."""
    q = sim.question("a1_streaming")
    assert q.skeleton and q.skeleton < q.reference.hashes
    plain = sim.compare(q.reference, q.reference, "x")
    assert plain.score == 1.0
    only_skeleton = sim.Fingerprints({h: q.reference.lines[h] for h in q.skeleton})
    mixed = sim.Fingerprints({**only_skeleton.lines, **{h + 1: frozenset() for h in range(sim.MIN_OWN)}})
    weighed = sim.compare(mixed, q.reference, "x", q.skeleton).score
    unweighed = sim.compare(mixed, q.reference, "x").score
    assert weighed < unweighed


def test_fingerprints_are_the_same_in_every_process():
    """Python's str hash is salted per process: the winnowing must not use it."""
    import subprocess
    import sys

    code = "from grader.engine import similarity as s; print(sorted(s.question('a3_broadcast').reference.hashes)[:3])"
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT).stdout for _ in "ab"}
    assert len(runs) == 1 and runs != {""}


def test_spans():
    assert sim.spans((3, 4, 5, 9, 11, 12)) == "3-5, 9, 11-12"


@pytest.mark.parametrize("ex", [A3], ids=lambda ex: ex.id)
def test_self_study_grades_a_near_copy_and_says_so(ex, tmp_path):
    """make grade: a near copy keeps its credit (self-study is the learner's own, docs/security.md)
    and the report says how much of it is the reference's, with the lines; Gradescope's results
    carry it in a test only the instructor sees. An own answer is compared and not flagged."""
    from rich.console import Console

    from grader.classroom import gradescope
    from grader.course import levels
    from grader.engine import runner
    from grader.reports import html as html_report, terminal

    (tmp_path / f"{ex.module}.py").write_text(RENAMED_A3 + "\nprint('mine')\n")
    results = runner.grade(tmp_path, only=[ex.id])
    res = results[ex.id]
    assert all(k.passed for k in res.key_points), res
    assert res.near_copy and res.similarity["against"] == "reference" and res.similarity["lines"]
    summary = levels.summarize({k: r.outcome() for k, r in results.items()})
    console = Console(record=True, width=200)
    terminal.print_report(results, summary, console)
    text = console.export_text()
    assert (
        "Close to the reference answer" in text
        and "solutions/" not in text
        and f"{ex.id}: 100% like the reference answer" in text
    )
    assert f"{ex.id}: 100% like the reference answer" in html_report.render(results, summary)
    data = gradescope.results_json(results, [], 1.0, {})
    hidden = [t for t in data["tests"] if t["tags"] == ["similarity"]]
    assert hidden and hidden[0]["visibility"] == "hidden" and f"{ex.id}: 100%" in hidden[0]["output"]
    assert data["extra_data"]["exercises"][ex.id]["similarity"]["score"] == 1.0

    (tmp_path / f"{ex.module}.py").write_text(HONEST_A3[0])
    honest = runner.grade(tmp_path, only=[ex.id])[ex.id]
    assert all(k.passed for k in honest.key_points), honest
    assert honest.similarity and not honest.near_copy


def test_a_module_too_large_to_compare_is_said_so():
    """The grader's own process reads the learner's file: past MAX_NODES it is not compared, and
    the result says so (an answer padded to escape comparison is seen, never scored 0 silently)."""
    padded = RENAMED_A3 + "\n".join(f"x{i} = [{i}, {i}]" for i in range(sim.MAX_NODES // 4))
    m = sim.against_reference(A3.module, padded)
    assert m.score == 0.0 and "not compared" in m.note and "not compared" in m.to_dict()["note"]
    assert "not compared" in sim.class_matches(A3.module, {"a": padded, "b": RENAMED_A3})["a"].note


SPLIT_A3 = {
    "a3_broadcast.py": (
        "from _merge import merge\nfrom _pad import pad\n\n\ndef broadcast_shape(a, b):\n    return merge(*pad(a, b))\n"
    ),
    "_pad.py": """
def pad(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    return a, b
""",
    "_merge.py": """
import _pad as unused_but_imported


def merge(a, b):
    out = []
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y and 1 not in (x, y):
            raise ValueError(f"no: {i}")
        out.append(y if x == 1 else x)
    return tuple(out)
""",
}


@pytest.mark.parametrize("layout", ["helper modules", "helper functions"])
def test_a_copy_split_into_helpers_is_the_reference(tmp_path, layout):
    """Issue 27 S2: the reference's statements moved into helpers the answer calls (in modules
    beside it, or functions of its own) are compared where they are called."""
    if layout == "helper modules":
        for name, text in SPLIT_A3.items():
            (tmp_path / name).write_text(text)
    else:
        main = SPLIT_A3["a3_broadcast.py"].split("\n", 2)[2]
        (tmp_path / "a3_broadcast.py").write_text(SPLIT_A3["_pad.py"] + SPLIT_A3["_merge.py"].split("\n", 3)[3] + main)
    answer = tmp_path / "a3_broadcast.py"
    assert not sim.near_copy(sim.against_reference(A3.module, answer.read_text()))  # as the file reads
    assert sim.near_copy(sim.against_reference(A3.module, sim.with_helpers(answer, A3.module)))


def test_an_honest_answer_with_helpers_is_compared_as_it_is(tmp_path):
    """Inlining changes no honest answer's score (HONEST_A3's helpers included)."""
    for source in HONEST_A3:
        (tmp_path / "a3_broadcast.py").write_text(source)
        inlined = sim.with_helpers(tmp_path / "a3_broadcast.py", A3.module)
        assert not sim.near_copy(sim.against_reference(A3.module, inlined))


def test_make_grade_reports_a_copy_split_into_helper_modules(tmp_path):
    from grader.engine import runner

    for name, text in SPLIT_A3.items():
        (tmp_path / name).write_text(text)
    res = runner.grade(tmp_path, only=["A3"])["A3"]
    assert res.near_copy and res.similarity["against"] == "reference", res.similarity


# An instructor's class (issue 28): alice wrote A9 herself; dave renamed the reference's variables.
ALICE_A9 = """
def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    hd = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    return 2 * config["num_hidden_layers"] * config["num_key_value_heads"] * hd \
* batch_size * seq_len * bytes_per_element


def fits_on_gpu(config, n_requests, context_len, gpu_bytes, weight_bytes, bytes_per_element=2):
    return weight_bytes + kv_cache_bytes(config, n_requests, context_len, bytes_per_element) <= gpu_bytes
"""
DAVE_A9 = """
def hdim(cfg):
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def kv_cache_bytes(cfg, bs, sl, bpe):
    tok = 2 * cfg["num_hidden_layers"] * cfg["num_key_value_heads"] * hdim(cfg)
    return tok * bs * sl * bpe


def fits_on_gpu(cfg, nreq, ctx, gpu, wts, bpe=2):
    return wts + kv_cache_bytes(cfg, nreq, ctx, bpe) <= gpu
"""


def test_an_honest_answer_is_no_copy_of_a_classmate_who_copied_the_reference():
    """What two classmates share with the reference is the reference's row, not theirs: alice scored
    0.75 against dave (a near copy) and 0.5 against the reference itself."""
    a9 = catalog.get("A9").module
    best = sim.class_matches(a9, {"alice": ALICE_A9, "dave": DAVE_A9})
    assert not sim.near_copy(best["alice"]) and not sim.near_copy(best["dave"]), best
    assert best["alice"].score <= sim.against_reference(a9, ALICE_A9).score + 0.1, best
    pasted = sim.class_matches(a9, {"alice": ALICE_A9, "carol": ALICE_A9 + "\nMINE = 1\n"})
    assert sim.near_copy(pasted["carol"]) and pasted["carol"].against == "alice", pasted  # a classmate's own code


# ---------------------------------------------------------------- code built from data (issue 27/28)
def _built_from_data(ex, how: str, text: str | None = None) -> str:
    """The reference (or ``text``) run as code built at run time from data, as an attacker's copies
    did (each scored 0% with full credit); "pickle" is one of the same class found here."""
    import marshal
    import pickle

    text = reference(ex) if text is None else text
    func = sorted(sim.question(ex.module).contract)[0]
    code = next(c for c in compile(text, "mine", "exec").co_consts if getattr(c, "co_name", "") == func)

    class Runs:
        def __reduce__(self):
            return (exec, (text,))

    return {
        "marshal": (
            f"import marshal\nimport types\n\n"
            f"{func} = types.FunctionType(marshal.loads({marshal.dumps(code)!r}), globals())\n"
        ),
        "docstring": f"{text!r}\nexec(__doc__)\n",
        "comment lines": "".join(f"#|{line}\n" for line in text.splitlines())
        + 'exec("".join(line[2:] for line in open(__file__) if line.startswith("#|")))\n',
        "built import": f'import importlib\n\n{func} = importlib.import_module("hlp" + "_impl").{func}\n',
        "pickle": f"import pickle\n\npickle.loads({pickle.dumps(Runs())!r})\n",
    }[how]


BUILT_FROM_DATA = ["marshal", "docstring", "comment lines", "built import", "pickle"]


def _answer_folder(tmp_path, ex, how: str):
    (tmp_path / f"{ex.module}.py").write_text(_built_from_data(ex, how))
    if how == "built import":
        (tmp_path / "hlp_impl.py").write_text(reference(ex))
    return tmp_path / f"{ex.module}.py"


@pytest.mark.parametrize("how", BUILT_FROM_DATA)
def test_code_built_from_data_is_opaque_and_what_it_runs_is_compared(how, tmp_path):
    """Each is reported opaque at its lines, and where the data is in the file (its docstring,
    comment lines, a pickle's text, a marshalled code object), or a sibling module it imports by
    a built name, compared as what it runs: a near copy."""
    answer = _answer_folder(tmp_path, A3, how)
    m = sim.against_reference(A3.module, sim.with_helpers(answer, A3.module), written=answer.read_bytes())
    assert m.opaque and "opaque" in m.to_dict(), m
    assert sim.near_copy(m), m
    if how != "built import":  # the file alone: no sibling to read
        assert sim.near_copy(sim.against_reference(A3.module, answer.read_text()))


@pytest.mark.parametrize("how", ["docstring", "comment lines", "pickle"])
@pytest.mark.parametrize("exercise_id", ["P1", "C7"])
def test_other_exercises_built_from_data_are_opaque_near_copies(exercise_id, how):
    ex = catalog.get(exercise_id)
    m = sim.against_reference(ex.module, _built_from_data(ex, how))
    assert m.opaque and sim.near_copy(m), m


@pytest.mark.parametrize("how", ["marshal", "docstring"])
def test_classmates_with_identical_files_are_copies_of_each_other(how):
    """Byte-identical files whose code is data (here an honest answer's, so not the reference's)
    were no copies of each other: the raw text (constants, docstrings, comments) is compared too."""
    mine = _built_from_data(A3, how, HONEST_A3[0])
    best = sim.class_matches(A3.module, {"ann": mine, "ben": mine, "cat": HONEST_A3[1]})
    assert best["ann"].against == "ben" and sim.near_copy(best["ann"]) and best["ann"].opaque, best
    assert best["ben"].against == "ann" and sim.near_copy(best["ben"]), best
    assert not sim.near_copy(best["cat"]) and not best["cat"].opaque, best


def test_code_built_from_constants_the_comparison_folds_is_not_opaque():
    for how in RUN_FROM_STRING:
        assert not sim.opaque(_run_from_string(reference(A3), how)), how
    assert sim.opaque("import sys\nexec(sys.argv[1])\n") == ((2, "exec"),)
    assert sim.opaque("import importlib\nm = importlib.import_module('numpy')\n") == ()
    assert sim.opaque("f = getattr(__builtins__, 'ex' + 'ec')\n")  # a builder reached by a built name
    assert sim.opaque("f = __import__('marshal').loads(b'...')\n") == ((1, "marshal.loads"),)
    assert sim.opaque("PARTS = ['serialization', 'pickle']\n") == ()  # a module's name is an honest string


def test_no_honest_answer_is_opaque():
    """The references, valid variants, stubs, valid answers and honest answers build no code from data."""
    files = [
        *(ROOT / "solutions").glob("*.py"),
        *VARIANTS_DIR.glob("*/*.py"),
        *(ROOT / "exercises").glob("*.py"),
        *(ROOT / "tests" / "valid_answers").glob("*.py"),
    ]
    assert len(files) > 50
    assert not [(p.name, sim.opaque(p.read_bytes())) for p in files if sim.opaque(p.read_bytes())]
    assert not [s for s in HONEST_A3 if sim.opaque(s)]


@pytest.mark.parametrize("how", BUILT_FROM_DATA)
def test_make_grade_reports_code_built_from_data(how, tmp_path):
    """Full credit, as before, but never a silent 0%: the report and Gradescope's hidden similarity
    test say which lines build the code that runs, in the learner's language."""
    from rich.console import Console

    from grader.classroom import gradescope
    from grader.course import levels
    from grader.engine import runner
    from grader.reports import html as html_report, terminal

    _answer_folder(tmp_path, A3, how)
    results = runner.grade(tmp_path, only=["A3"])
    res = results["A3"]
    assert res.opaque and res.near_copy, res.similarity
    summary = levels.summarize({k: r.outcome() for k, r in results.items()})
    console = Console(record=True, width=200)
    terminal.print_report(results, summary, console)
    line = terminal.opaque_line(res)
    text = console.export_text()
    assert "Code built at run time from data" in text and line in text
    assert line in html_report.render(results, summary)
    hidden = [t for t in gradescope.results_json(results, [], 1.0, {})["tests"] if t["tags"] == ["similarity"]]
    assert line in hidden[0]["output"], hidden


def test_batch_copies_say_which_answers_are_opaque():
    """copies.csv: an opaque column and note for each; an honest answer has neither."""
    from grader.classroom import analytics

    answers = {f"s_{how}": _built_from_data(A3, how).encode() for how in BUILT_FROM_DATA if how != "built import"}
    answers["honest"] = HONEST_A3[2].encode()
    rows = {r["student"]: r for r in analytics.copies({"A3": answers})}
    for how in BUILT_FROM_DATA:
        if how != "built import":
            row = rows[f"s_{how}"]
            assert row["opaque"] and row["note"] == analytics.OPAQUE_NOTE and row["near_copy"], row
    assert not rows["honest"]["opaque"] and not rows["honest"]["note"] and not rows["honest"]["near_copy"]


def _helper_folder(tmp_path, honest: bool):
    """An answer that imports a helper module of its own; dishonest: the helper builds the code."""
    import marshal

    text = HONEST_A3[0]
    if honest:
        helper = text
    else:
        code = next(c for c in compile(text, "h", "exec").co_consts if getattr(c, "co_name", "") == "broadcast_shape")
        blob = marshal.dumps(code)
        helper = f"import marshal\nimport types\n\nf = types.FunctionType(marshal.loads({blob!r}), globals())\n"
    (tmp_path / "_shapes.py").write_text(helper)
    name = "broadcast_shape" if honest else "f"
    (tmp_path / "a3_broadcast.py").write_text(
        f"from _shapes import {name}\n\n\ndef broadcast_shape(a, b):\n    return {name}(a, b)\n"
        if not honest
        else "from _shapes import broadcast_shape\n"
    )
    return tmp_path / "a3_broadcast.py"


@pytest.mark.parametrize("honest", [False, True])
def test_opaque_code_in_a_helper_module_is_named_there(tmp_path, honest):
    """Issue 27: a helper module the answer imports is scanned too, the finding named by its file and
    line, in make grade and in copies.csv; an honest answer with helpers is never opaque."""
    from grader.classroom import analytics
    from grader.engine import runner

    answer = _helper_folder(tmp_path, honest)
    found = sim.helpers_opaque(answer)
    assert bool(found) is not honest, found
    if not honest:
        assert ("_shapes.py:4", "marshal.loads") in found and ("_shapes.py:4", "types.FunctionType") in found
        assert "_shapes.py:4" in sim.opaque_text(found)
    res = runner.grade(tmp_path, only=["A3"])["A3"]
    assert res.opaque is not honest, res.similarity
    rows = analytics.copies(
        {"A3": {"ann": answer.read_bytes(), "cat": HONEST_A3[1].encode()}},
        {"A3": {"ann": found, "cat": ()}},
    )
    by = {r["student"]: r for r in rows}
    assert bool(by["ann"]["opaque"]) is not honest and ("_shapes.py:4" in by["ann"]["opaque"]) is not honest, by
    assert not by["cat"]["opaque"], by
