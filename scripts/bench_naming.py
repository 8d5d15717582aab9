"""The cost of naming a mistake, per failing grade, in CPU seconds (issue 30: <= 1 s extra).

    .venv/bin/python scripts/bench_naming.py            # A3's wrong answers, both ways
    .venv/bin/python scripts/bench_naming.py A6 X4      # other exercises' wrong answers

Grades every registered wrong answer of the exercises (solutions/mutants/<module>/) and the fresh
ones of tests/naming_answers/ on the key points that catch them, twice, each way in its own process:
"replay" (GRADER_NAMING=mutants: every failed key point's call replayed against the registered wrong
answers, one process each, as before properties) and "properties" (the default: the key point's
declared properties, in the check's process, plus one call on a probe input). The figure is the
``naming_cpu_s`` the plugin records: CPU time of the check process, of the learner's process (probe
calls) and of every replayed wrong answer's process. CPU time, not wall time: the machine is shared.
"""

from __future__ import annotations

import ast
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_S = 1.0


def _answers(ex_ids: list[str]) -> list[tuple[str, Path, tuple[str, ...]]]:
    from grader.course import catalog

    out = []
    for ex_id in ex_ids:
        ex = catalog.get(ex_id)
        for p in sorted((ROOT / "solutions" / "mutants" / ex.module).glob("*.py")):
            if not p.name.startswith("_"):
                out.append((ex_id, p, _literal(p, "KILLED_BY")))
    for p in sorted((ROOT / "tests" / "naming_answers").glob("*.py")):
        meta = _literal(p, "EXERCISE, CAUGHT_BY, NAMES")
        if meta and meta[0] in ex_ids:
            out.append((meta[0], p, tuple(meta[1])))
    return out


def _literal(path: Path, target: str):
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]).strip("()") == target:
            return ast.literal_eval(node.value)
    return ()


def _one_mode(ex_ids: list[str]) -> list[dict]:
    """Grade every answer in this process's mode; one row per failing grade."""
    from grader.course import catalog
    from grader.engine import runner

    runner.warm_up(heavy=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for ex_id, path, key_points in _answers(ex_ids):
            ex, label = catalog.get(ex_id), f"{ex_id}/{path.stem}"
            if "naming_answers" in path.parts:  # the reference with the answer's functions over it
                own = "\n".join(ln for ln in path.read_text().splitlines() if not ln.startswith("from solutions."))
                folder = Path(tmp) / path.stem
                folder.mkdir()
                path = folder / f"{ex.module}.py"
                path.write_text((ROOT / "solutions" / f"{ex.module}.py").read_text() + "\n\n" + own + "\n")
            res = runner.grade_exercise(ex, path, key_points=key_points or None)
            failed = [kp for kp in res.key_points if kp.status in ("failed", "error")]
            if failed:
                rows.append(
                    {
                        "answer": label,
                        "naming_cpu_s": sum(kp.naming_cpu_s for kp in failed),
                        "named": sum(bool(kp.misconception) for kp in failed),
                        "failed": len(failed),
                    }
                )
    return rows


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--mode":
        print(json.dumps(_one_mode(sys.argv[2:])))
        return
    ex_ids = [a.upper() for a in sys.argv[1:]] or ["A3"]
    results = {}
    for mode, env in (("replay", "mutants"), ("properties", "")):
        out = subprocess.run(
            [sys.executable, __file__, "--mode", *ex_ids],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "GRADER_NAMING": env},
            check=True,
        )
        results[mode] = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"mistake-naming CPU per failing grade ({', '.join(ex_ids)}; goal <= {GOAL_S:g} s)")
    print(f"{'way':<12}{'grades':>7}{'named':>7}{'mean s':>9}{'max s':>8}")
    for mode, rows in results.items():
        cpu = [r["naming_cpu_s"] for r in rows]
        named = sum(r["named"] > 0 for r in rows)
        mean_cpu = statistics.mean(cpu) if cpu else 0
        print(f"{mode:<12}{len(rows):>7}{named:>7}{mean_cpu:>9.3f}{max(cpu, default=0):>8.3f}")
    worst = max(results["properties"], key=lambda r: r["naming_cpu_s"], default=None)
    if worst:
        print(f"costliest now: {worst['answer']} {worst['naming_cpu_s']:.3f} s")


if __name__ == "__main__":
    main()
