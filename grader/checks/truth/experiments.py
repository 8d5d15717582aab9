"""Check-side ground truth for the "is the conclusion real" exercises (B2, C6): multi-seed bands,
ci95 of an accuracy with the exact normal quantile, and the seven-item run record (part 2,
statistics; part 6, experiment management), and the git repository a run record points at."""

from __future__ import annotations

import math
import statistics

import numpy as np

from grader.checks.support.checking import fail
from grader.i18n import _

Z95 = statistics.NormalDist().inv_cdf(0.975)  # 1.95996...
SEVEN_ITEMS = ("run_id", "commit", "config", "data_version", "seed", "environment", "metrics")
RECORD_ITEMS = tuple(item.replace("_", " ") for item in SEVEN_ITEMS)  # as shown: "run id", "commit", ...
SETTINGS_ITEMS = ("commit", "config", "data_version", "seed", "environment")  # what must match to compare
# The record's environment, in the course's words: 「配置用 dataclass + asdict 存进 run 目录，pip freeze 锁环境」
# (part 7 §五.C q6's answer; part 1's pip freeze kept in the run folder): what pip freeze lists, each
# installed distribution's name -> its version. Any environment that runs torch lists more than this;
# the interpreter's and torch's versions alone name two, not the installed packages.
MIN_DISTRIBUTIONS = 5


def mean_std(values, ddof: int = 1) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof=1; ddof=0: the population std), as numpy computes them."""
    a = np.asarray(values, dtype=np.float64)
    return float(a.mean()), float(a.std(ddof=ddof))


SPREADS = ("std", "sem")  # a band's half-width: k x the sample std, or k x the standard error std / sqrt(n)


def band(values, k: float = 1.0, spread: str = "std", ddof: int = 1) -> tuple[float, float]:
    """(low, high) of mean +- k x spread; "sem" is the standard error of the mean, std / sqrt(n)
    (``ddof``: of that std; 0 only to name the population-std mistake)."""
    m, s = mean_std(values, ddof)
    half = k * (s if spread == "std" else s / math.sqrt(len(values)))
    return m - half, m + half


def bands_overlap(a, b, k: float = 1.0, spread: str = "std", ddof: int = 1) -> bool:
    (la, ha), (lb, hb) = band(a, k, spread, ddof), band(b, k, spread, ddof)
    return la <= hb and lb <= ha


def bands_touching(a, b, k: float = 1.0, spread: str = "std") -> bool:
    """A pair on the bands' touching edge (equal in float64, or within 1e-6): float32 answers differ there."""
    (la, ha), (lb, hb) = band(a, k, spread), band(b, k, spread)
    return min(abs(la - hb), abs(lb - ha)) <= 1e-6


COURSE_GAP, COURSE_STD = 0.30, 0.179  # part 2: 「5 个 seed 的均值差 0.30、约 1.7 个标准差（seed 间标准差 0.179）」


def course_seed_example(center: float = 3.0) -> tuple[list[float], list[float]]:
    """Part 2's example: 5 seeds each, means COURSE_GAP apart, seed-to-seed std COURSE_STD
    (「差 0.30、约 1.7 个标准差」), whose shaded bands the course reads as not overlapping late in
    training; the first config's mean is ``center`` (a loss of about 3 in the course's figure; any
    level gives the same bands, as long as the values mean what the caller needs, e.g. accuracies)."""
    z = np.linspace(-1.0, 1.0, 5)
    z = z / z.std(ddof=1)
    a = [float(center + COURSE_STD * x) for x in z]
    return a, [float(x - COURSE_GAP) for x in a]


def git_repo(parent, text: str) -> tuple[str, str]:
    """A git repository with one commit under ``parent``, readable by the learner's user (another
    user than its owner): (its path, the full sha of HEAD as git reports it)."""
    import os
    import subprocess
    import tempfile

    def git(*args):
        return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True).stdout.strip()

    repo = tempfile.mkdtemp(prefix="repo-", dir=parent)
    git("init", "-q")
    with open(os.path.join(repo, "train.py"), "w") as f:
        f.write(text)
    git("add", "train.py")
    git("-c", "user.name=grader", "-c", "user.email=g@x", "commit", "-q", "-m", "run")
    for root, _dirs, files in os.walk(repo):
        for p in [root, *(os.path.join(root, f) for f in files)]:
            os.chmod(p, 0o755 if os.path.isdir(p) else 0o644)
    return repo, git("rev-parse", "HEAD")


def ci95_half_width(p: float, n: int) -> float:
    return Z95 * math.sqrt(p * (1 - p) / n)


SEED_BANDS = {"k": 1.0, "spread": "sem"}  # B2's convention (its stub names it): mean +- 1 standard error


def seed_verdict(a, b, n) -> str | None:
    """B2's verdict on two runs' seed scores: need_more_seeds / real / not_shown, by the course's
    rule on numpy's mean/std and the exact ci95, bands of SEED_BANDS; None when the draw sits on a
    rounding edge (1.96 vs the exact quantile, band touching)."""
    if len(a) < 2 or len(b) < 2:
        return "need_more_seeds"
    (ma, _), (mb, _) = mean_std(a), mean_std(b)
    ci = ci95_half_width((ma + mb) / 2, n)
    if abs(abs(ma - mb) - ci) <= 1e-3 * ci + 1e-12 or bands_touching(a, b, **SEED_BANDS):
        return None
    return "real" if not bands_overlap(a, b, **SEED_BANDS) and abs(ma - mb) > ci else "not_shown"


def close(got: float, want: float) -> bool:
    """1.96 for the exact quantile is fine (relative 1e-3)."""
    return abs(got - want) <= 1e-3 * abs(want) + 1e-12


def check_environment(env, named: str) -> None:
    """A run record's environment (P5, C6): a pip-freeze-like dict of the installed distributions,
    each name -> its version string (MIN_DISTRIBUTIONS or more), the torch that runs among them at
    its version. ``named``: the record's key as the learner named it."""
    import torch

    source = _("part 7 §五.C q6's answer: 「pip freeze 锁环境」, the environment is what pip freeze lists")
    if (
        type(env) is not dict
        or len(env) < MIN_DISTRIBUTIONS
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
    ):
        fail(
            _("run record item {environment}", environment=repr(named)),
            _("a pip-freeze-like dict {package: version} of the installed packages"),
            _("{n} entries", n=len(env)) if type(env) is dict and len(env) < MIN_DISTRIBUTIONS else env,
            source,
        )
    if env.get("torch") != torch.__version__:
        fail(f"{named}['torch']", torch.__version__, env.get("torch"), _("the version of the torch that runs"))
