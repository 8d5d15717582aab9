"""C6 — what do you do, from design to record, so that people trust your conclusion?
(part 7, §五.C question 6; parts 2 and 6).

Several seeds with mean and std; the eval table read with its ci95; per-question diffs, not only
the total; a seven-item record per run; the same seed reproduces the same number. Accuracies are
fractions in [0, 1].
"""

SEVEN_ITEMS = ("run_id", "commit", "config", "data_version", "seed", "environment", "metrics")


def seed_summary(values: list[float]) -> tuple[float, float]:
    """(mean, sample standard deviation with ddof=1) of one config's per-seed metric.
    Source: part 2, "report the mean and std over seeds, plot the mean with a shaded band".
    """
    raise NotImplementedError("C6: seed_summary")


def bands_overlap(a: list[float], b: list[float]) -> bool:
    """True if the mean +- std bands of two configs' seed values overlap (touching counts as
    overlapping): then no difference is shown. Source: part 2; part 7 §五.C question 6.
    """
    raise NotImplementedError("C6: bands_overlap")


def ci95_half_width(p: float, n: int) -> float:
    """Half-width of the 95% interval of an accuracy p measured on n questions:
    1.96 x sqrt(p (1 - p) / n), as a fraction (80 questions at p ~ 0.55: ~0.109, i.e. +-10.9 points).
    Source: part 2, must-remember.
    """
    raise NotImplementedError("C6: ci95_half_width")


def changed_questions(results_a: list[tuple[str, bool]], results_b: list[tuple[str, bool]]) -> dict:
    """Merge two eval tables on the question id and list what changed.

    Args:
        results_a, results_b: (question_id, correct) pairs of the old and the new run; ids are
            unique within a table; only ids present in both count (an inner merge).
    Returns:
        ``{"improved": sorted ids wrong in a and right in b, "degraded": sorted ids right in a and
        wrong in b}``. Source: part 2 (pandas merge + query); part 7 §五.C question 6, key point 3.
    """
    raise NotImplementedError("C6: changed_questions")


def run_record(config: dict, data_path: str, seed: int, metrics: dict) -> dict:
    """The seven-item record of a run.

    Returns a dict with exactly the keys of ``SEVEN_ITEMS``: ``run_id`` (a str unique per call),
    ``commit`` (a str; "unknown" outside a git checkout), ``config`` (the config as given),
    ``data_version`` (the SHA-256 hex digest of the data file's bytes), ``seed``,
    ``environment`` (a dict with at least ``"python"``: platform.python_version() and
    ``"torch"``: torch.__version__) and ``metrics`` (as given).
    Source: part 6, must-remember "run id, commit, config, data version, seed, environment, metrics".
    """
    raise NotImplementedError("C6: run_record")


def seeded_experiment(seed: int) -> float:
    """A tiny experiment whose every random choice comes from ``seed``: e.g. draw a small
    regression data set and an initial weight with ``torch.Generator().manual_seed(seed)``, take
    10 SGD steps, return the final loss as a float. The same seed must give the identical number on
    every call; different seeds different numbers. Source: part 6 / part 7 §五.C question 6,
    "the same seed twice giving the same result is the precondition".
    """
    raise NotImplementedError("C6: seeded_experiment")
