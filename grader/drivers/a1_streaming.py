"""A1 drivers: measure the learner's pipeline where it runs, in the learner's process.

``run_peak`` wraps ``pipeline`` in ``tracemalloc`` and returns its counts and traced peak.
``run_limited`` runs ``pipeline`` in a fresh child Python whose address-space limit
(RLIMIT_AS) is its own size after start-up plus ``budget_bytes`` (less than the file), so a
pipeline that holds the file in memory dies with MemoryError there.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import tracemalloc

CHILD = r"""
import importlib.util, json, resource, sys
module_file, path, min_chars, budget = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
spec = importlib.util.spec_from_file_location("learner_a1", module_file)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
vm = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmSize:"))
hard = resource.getrlimit(resource.RLIMIT_AS)[1]
limit = vm + budget if hard == resource.RLIM_INFINITY else min(vm + budget, hard)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))  # hard too: the learner's code cannot raise it
try:
    out = {"result": mod.pipeline(path, min_chars), "vm_bytes": vm, "limit_bytes": limit}
except MemoryError:
    out = {"error": "MemoryError", "vm_bytes": vm, "limit_bytes": limit}
except Exception as exc:
    out = {"error": f"{type(exc).__name__}: {exc}"[:300], "type": type(exc).__name__,
           "message": str(exc)[:300], "vm_bytes": vm, "limit_bytes": limit}
sys.stdout.write("\n" + json.dumps(out))
"""


def run_peak(learner_module, *, path: str, min_chars: int) -> dict:
    gc.collect()
    tracemalloc.start()
    try:
        result = learner_module.pipeline(path, min_chars)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {"result": result, "peak_bytes": peak}


def run_limited(learner_module, *, path: str, min_chars: int, budget_bytes: int, timeout_s: float = 15.0) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, learner_module.__file__, path, str(min_chars),
                           str(budget_bytes)], capture_output=True, text=True, timeout=timeout_s)
    last = proc.stdout.strip().rpartition("\n")[2]
    try:
        out = json.loads(last)
    except ValueError:
        return {"error": f"the child process exited with code {proc.returncode}: {proc.stderr[-400:]}"}
    if out.get("type") == "NotImplementedError":  # reported as "not implemented yet", like a direct call
        raise NotImplementedError(out["message"])
    return out
