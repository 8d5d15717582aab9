"""C6 — a conclusion people can trust.

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 6)::

    你的实验结论要让人信，从设计到记录你会做哪些事？

    For people to trust your experimental conclusion, what do you do, from the design to the
    record?

Answer it as code; then the follow-up direction. Accuracies are fractions in [0, 1].

What the grader measures: your statistics against numpy's on drawn seed values and the exact
normal quantile; your question lists against an inner merge of drawn eval tables; your run
record against a git repository, a data file and the interpreter the grader set up; your experiment run
again with the same seed and with others.

Study: 第二篇 · 必记 / part 2, must-remember; 第六篇 · 必记 / part 6, must-remember;
第七篇 · 三、贯穿全系列的几条线 / part 7, §三.5.
"""


def seed_summary(values: list[float]) -> tuple[float, float]:
    """``(mean, sample standard deviation with ddof=1)`` of one config's metric over seeds.

    Source: 第二篇 · 结论 / part 2, conclusion.
    """
    raise NotImplementedError("C6: seed_summary")


def bands_overlap(a: list[float], b: list[float], k: float = 1.0, spread: str = "std") -> bool:
    """Do the bands of two configs overlap, each band drawn from its seed values as the course
    shades a config's spread over seeds (with :func:`seed_summary`'s statistics)? Returns a
    plain bool.

    Band width convention: each band is ``mean ± k × s``, where ``s`` is the sample standard
    deviation of the seed values when ``spread == "std"``, and the standard error of their mean
    (that standard deviation divided by the square root of n, n the number of seeds) when ``spread == "sem"``.

    Source: 第二篇 · 必记 / part 2, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q6.
    """
    raise NotImplementedError("C6: bands_overlap")


def ci95_half_width(p: float, n: int) -> float:
    """The half-width of the 95% confidence interval of an accuracy ``p`` measured on ``n``
    questions, as the course computes it (a fraction, like ``p``).

    Source: 第二篇 · 必记 / part 2, must-remember.
    """
    raise NotImplementedError("C6: ci95_half_width")


def changed_questions(results_a: list[tuple[str, bool]], results_b: list[tuple[str, bool]]) -> dict:
    """The questions whose verdict changed between two eval runs.

    Args:
        results_a, results_b: ``(question_id, correct)`` pairs of the old and the new run; ids
            are unique within a table; only ids present in both count.

    Returns:
        ``{"improved": sorted ids wrong in a and right in b, "degraded": sorted ids right in a
        and wrong in b}``.

    Source: 第二篇 · 结论 / part 2, conclusion; 第七篇 · C. 面试题 / part 7, §五.C q6.
    """
    raise NotImplementedError("C6: changed_questions")


def run_record(run: dict) -> dict:
    """The minimal record of one run, as the course defines it.

    Args:
        run: what is known about the run when it ends, more than a record needs (which of it
            goes into the record, and what else the record needs, is yours to decide): a dict
            with the keys ``"config"`` (dict), ``"data_path"`` (str, the training data file),
            ``"host"`` (str), ``"metrics"`` (dict), ``"notes"`` (str), ``"output_dir"`` (str),
            ``"repo_dir"`` (str, the git repository of the training code, a repository owned by
            another user than the one running your code), ``"id"`` (str, the run's identifier),
            ``"seed"`` (int), ``"started_at"`` (str, ISO 8601) and ``"user"`` (str).

    Returns:
        A dict with one entry per item of that record, keyed by short names (in the course's
        words, Chinese or English, or a common synonym, matched by meaning), no other entries. Conventions for whatever
        values it holds (more kinds than a record needs): a value taken from ``run`` is recorded as given; what
        describes a file or a folder describes it as it is now: a git repository by the full sha git reports
        for its ``HEAD``, a file's content by the SHA-256 hex digest of its bytes, a size in bytes
        (int); software by a dict ``{name: version string}`` that includes
        ``"python": platform.python_version()`` and ``"torch": torch.__version__``; a time is an
        ISO 8601 string; a machine by its host name.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q6.
    """
    raise NotImplementedError("C6: run_record")


def seeded_experiment(seed: int) -> float:
    """A tiny experiment whose result depends on ``seed`` (for instance a few SGD steps on a
    small random regression problem); returns its final loss as a float.

    Measured: the grader calls it twice with the same seed (with another seed's run in between)
    and with other seeds.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q6.
    """
    raise NotImplementedError("C6: seeded_experiment")
