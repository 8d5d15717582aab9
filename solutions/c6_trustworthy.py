"""C6 — trustworthy conclusions (part 7 §五.C q6; parts 2 and 6)."""

import hashlib
import math
import platform
import statistics
import subprocess
from importlib import metadata

import torch

SEVEN_ITEMS = ("run_id", "commit", "config", "data_version", "seed", "environment", "metrics")


def seed_summary(values):
    return statistics.mean(values), statistics.stdev(values)


def bands_overlap(a, b, k=1.0, spread="std"):
    def band(values):
        m, s = seed_summary(values)
        half = k * (s if spread == "std" else s / math.sqrt(len(values)))
        return m - half, m + half

    (la, ha), (lb, hb) = band(a), band(b)
    return la <= hb and lb <= ha


def ci95_half_width(p, n):
    return 1.96 * math.sqrt(p * (1 - p) / n)


def changed_questions(results_a, results_b):
    a, b = dict(results_a), dict(results_b)
    both = a.keys() & b.keys()
    return {
        "improved": sorted(q for q in both if not a[q] and b[q]),
        "degraded": sorted(q for q in both if a[q] and not b[q]),
    }


def _commit(repo_dir):
    out = subprocess.run(
        ["git", "-c", "safe.directory=*", "-C", repo_dir, "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def _environment():
    env = {d.metadata["Name"]: d.version for d in metadata.distributions() if d.metadata["Name"]}
    env["python"] = platform.python_version()
    return env


def run_record(run):
    with open(run["data_path"], "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return {
        "run_id": run["id"],
        "commit": _commit(run["repo_dir"]),
        "config": dict(run["config"]),
        "data_version": digest,
        "seed": run["seed"],
        "environment": _environment(),
        "metrics": dict(run["metrics"]),
    }


def seeded_experiment(seed):
    g = torch.Generator().manual_seed(seed)
    x, y = torch.randn(32, 4, generator=g), torch.randn(32, 1, generator=g)
    w = torch.randn(4, 1, generator=g, requires_grad=True)
    for _ in range(10):
        loss = ((x @ w - y) ** 2).mean()
        (grad,) = torch.autograd.grad(loss, w)
        w = (w - 0.1 * grad).detach().requires_grad_(True)
    return float(((x @ w - y) ** 2).mean())
