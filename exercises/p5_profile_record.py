"""P5 — read a profile, and make a run reproducible.

The course asks (第七篇 · 二、逐篇回顾 · 第六篇, 核心问题; one of 总纲 · 八、自测清单：五件做出来的事)::

    不写 kernel，能不能解释一次训练为什么慢、一次推理为什么快不起来、一个 OOM 从哪里来？三个月后能不能复现今天这次实验？

    Without writing a kernel, can you explain why a training run is slow, why inference will not
    go faster, where an OOM comes from? Three months from now, can you reproduce today's
    experiment?

Read a real ``torch.profiler`` table of a training step; then make a run reproducible: a
DataLoader that gives the same run from the same seed, and the course's minimal run record,
saved as JSON beside the run.

What the grader measures: your summary against the same rows of a real profile; a tiny model
trained three times from your loader (same seed twice, another seed once) in a fresh process
whose global RNGs were reseeded from the OS; your record against a git repository, a data file
and the interpreter the grader set up, and the JSON you saved.

Study: 第六篇 · 必记 / part 6, must-remember; 第六篇 · 结论 / part 6, conclusion;
第一篇 · 结论 / part 1, conclusion; 总纲 · 七、实验工具：让三个月前的结果能复现 / L1 overview, §七.
"""


def summarize_profile(rows: list, k: int = 5) -> dict:
    """The top ops and the backward/forward ratio of a profiler table given as plain rows.

    Args:
        rows: one dict per row of ``prof.key_averages()`` of a real CPU profile of a few training
            steps: ``{"name": str, "self_cpu_time_us": float, "cpu_time_total_us": float,
            "count": int}`` (microseconds; ``self`` excludes the ops a row calls, ``total``
            includes them). The step ran inside ``record_function("forward")`` and
            ``record_function("backward")``, so two rows are named ``"forward"`` and
            ``"backward"``.
        k: how many top ops to return.

    Returns:
        ``{"top_ops": [k names], "backward_forward_ratio": float}``: the names of the ``aten::``
        rows that took the most time in the op itself, largest first (ties by name); and the
        total time of the ``"backward"`` row divided by that of the ``"forward"`` row.

    Source: 第六篇 · 必记 / part 6, must-remember; 第六篇 · 结论 / part 6, conclusion.
    """
    raise NotImplementedError("P5: summarize_profile")


def make_loader(dataset, seed: int, batch_size: int):
    """A ``torch.utils.data.DataLoader`` over ``dataset`` with ``shuffle=True``,
    ``num_workers=2`` and ``batch_size``, whose whole run is decided by ``seed``.

    The grader's dataset draws noise from ``np.random``, ``random`` and ``torch`` in
    ``__getitem__``; every global RNG is reseeded from the OS before your function runs (as in a
    fresh process).

    Measured: the same seed twice gives the identical metric; another seed a different one; no
    two samples of an epoch get the same noise.

    Source: 第六篇 · 必记 / part 6, must-remember; 第一篇 · 结论 / part 1, conclusion.
    """
    raise NotImplementedError("P5: make_loader")


def make_run_record(run: dict) -> dict:
    """The course's minimal record of this run, as a JSON-able dict.

    Args:
        run: what is known about the run when it ends, more than a record needs (which of it
            goes into the record, and what else the record needs, is yours to decide): a dict
            with the keys ``"config"`` (dict), ``"data_path"`` (str, the training data file),
            ``"host"`` (str), ``"metrics"`` (dict), ``"notes"`` (str), ``"output_dir"`` (str),
            ``"repo_dir"`` (str, the git repository of the training code, a repository owned by
            another user than the one running your code), ``"id"`` (str, the run's identifier),
            ``"seed"`` (int), ``"started_at"`` (str, ISO 8601) and ``"user"`` (str).

    Returns:
        One entry per item of the course's record, keyed by short names (in the course's
        words, Chinese or English, or a common synonym, matched by meaning), no other entries. Conventions for whatever
        values it holds (more kinds than a record needs): a value taken from ``run`` is recorded as given; what
        describes a file or a folder describes it as it is now: a git repository by the full sha git reports
        for its ``HEAD``, a file's content by the SHA-256 hex digest of its bytes, a size in bytes
        (int); software by a dict ``{distribution name: version string}`` of the installed
        distributions, ``"torch"`` among them; a time is an ISO 8601 string; a machine by its host
        name.

    Source: 第六篇 · 必记 / part 6, must-remember; 总纲 · 七、实验工具 / L1 overview, §七.
    """
    raise NotImplementedError("P5: make_run_record")


def save_run_record(record: dict, run_dir: str) -> str:
    """Write ``record`` as JSON to ``<run_dir>/run_record.json`` and return that path (a str).

    Source: 第六篇 · 结论 / part 6, conclusion; 第一篇 · 结论 / part 1, conclusion.
    """
    raise NotImplementedError("P5: save_run_record")
