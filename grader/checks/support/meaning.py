"""Names matched by meaning, not by spelling: the parts of the training state and the items of a
run record.

The stubs do not spell these out (which parts and which items there are is what the learner
recalls: part 4's bytes per trainable parameter, part 6's minimal run record), so the checks
accept any plain name and map it to the grader's own key: ``"fp32 master copy"`` and
``"master"`` are the same part, ``"git_sha"`` and ``"commit"`` the same item. A failure says
how many items are missing or which key is not understood; which items were expected is the
``expected`` value, withheld for recall key points (grader/engine/attempts.py).
"""

from __future__ import annotations

import random
import re
from typing import Callable

from grader.checks.support.checking import as_str, fail

STATE_PARTS = ("weights", "grads", "master", "adam_m", "adam_v")  # per trainable parameter
FROZEN = "frozen_weights"
RECORD_ITEMS = ("run_id", "commit", "config", "data_version", "seed", "environment", "metrics")
# What a run also knows when it ends, and a minimal record leaves out (none of them means an item).
OTHER_RUN_FACTS = ("host", "user", "started_at", "output_dir", "notes")


def run_facts(known: dict, seed: int) -> dict:
    """What a record maker is given (P5, C6): the facts its record is made from among others it
    leaves out, in name order, so that which facts make the record is the learner's to decide."""
    rng = random.Random(seed)
    other = {"host": f"node-{rng.randint(1, 64):02d}", "user": rng.choice(["ana", "li", "sam", "kim"]),
             "started_at": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00:00",
             "output_dir": f"/runs/{rng.randint(1000, 9999)}", "notes": rng.choice(["baseline", "lr sweep", "rerun"])}
    assert not set(known) & set(other) and all(record_item(k) is None for k in other)
    return dict(sorted({**known, **other}.items()))


def words(text: str) -> str:
    """Lower case, every run of non-alphanumerics one space: 'Git-SHA (commit)' -> 'git sha commit'."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower().replace("_", " ")).split())


def state_part(name: str, *, frozen: bool = True) -> str | None:
    """Which part of the training state a name means (None: not recognised). Order matters.
    ``frozen=False``: only the parts of a trainable parameter ("base weights" are its weights)."""
    w = words(name)
    tokens = set(w.split())
    if frozen and tokens & {"frozen", "base"}:
        return FROZEN
    if "master" in tokens or ("fp32" in tokens and tokens & {"weights", "weight", "params", "parameters", "copy"}):
        return "master"
    if tokens & {"grad", "grads", "gradient", "gradients"}:
        return "grads"
    if "exp avg sq" in w or tokens & {"v", "second", "variance", "nu", "sq"}:
        return "adam_v"
    if "exp avg" in w or tokens & {"m", "first", "momentum", "mu", "mean"}:
        return "adam_m"
    if tokens & {"weights", "weight", "params", "parameters", "param", "model"}:
        return "weights"
    return None


def record_item(name: str) -> str | None:
    """Which item of the minimal run record a name means (None: none). First match wins."""
    w = words(name)
    tokens = set(w.split())
    if tokens & {"data", "dataset", "datasets", "corpus"}:
        return "data_version"
    if "seed" in tokens or "seeds" in tokens:
        return "seed"
    if "runid" in tokens or tokens & {"run", "experiment"} and tokens & {"id", "name", "uuid", "identifier"}:
        return "run_id"
    if tokens & {"commit", "git", "sha", "hash", "revision"} or "code version" in w:
        return "commit"
    if tokens & {"config", "configuration", "configs", "hyperparameters", "hparams", "cfg", "args"}:
        return "config"
    if tokens & {"environment", "env", "pip", "freeze", "requirements", "packages", "versions", "conda", "docker"}:
        return "environment"
    if tokens & {"metrics", "metric", "results", "result", "scores", "score", "evaluation", "eval"}:
        return "metrics"
    return None


def by_meaning(got, matcher: Callable[[str], str | None], wanted: tuple[str, ...], what: str) -> tuple[dict, dict]:
    """``got``'s values keyed by the grader's names, and the learner's key for each of them.

    Fails when ``got`` is not a dict, when a key means none of ``wanted``, when two keys mean the
    same item, or when items are missing (the list of items is only ever the expected value)."""
    if type(got) is not dict:
        fail(f"{what} must be a dict {{name: value}}", "a dict", type(got).__name__)
    values: dict = {}
    names: dict = {}
    for name, value in got.items():
        name = as_str(name, f"a key of {what}")
        item = matcher(name)
        if item not in wanted:
            fail(f"{what}: the key {name!r} does not name one of the items asked for", sorted(wanted),
                 sorted(got))
        if item in values:
            fail(f"{what}: the keys {names[item]!r} and {name!r} name the same item", sorted(wanted), sorted(got))
        values[item], names[item] = value, name
    missing = [item for item in wanted if item not in values]
    if missing:
        fail(f"{what}: some items are missing", sorted(wanted), sorted(got))
    return values, names
