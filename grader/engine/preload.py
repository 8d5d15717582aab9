"""What the check processes' fork server imports once, so each check process starts warm.

Every exercise's checks run in a fresh process (runner.grade_exercise), forked from a server
that has already imported what checks use; importing torch, transformers and peft anew for
each of ~200 runs would dominate the grading time. A one-exercise re-grade preloads only the
light part (LIGHT), so the server itself starts fast. Nothing here starts threads or touches a
tensor, so forking afterwards is safe.
"""

import gc
import importlib

LIGHT = (
    "numpy",
    "pytest",
    "hypothesis",
    "grader.engine.plugin",
    "grader.checks.support.checking",
    "grader.checks.support.strategies",
)
HEAVY = LIGHT + (
    "torch",
    "torch.nn.functional",
    "transformers",
    "transformers.models.llama.modeling_llama",
    "peft",
    "grader.given.tiny_models",
)


def load(names) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a missing optional library only costs speed
            pass
    # What was imported lives as long as the process: a forked child's collections skip it
    # (torch & co.: ~4e5 objects, ~0.25 s of CPU per full collection) and, never writing to
    # its headers, leave its pages shared (Python's gc.freeze documentation, for fork servers).
    gc.freeze()
