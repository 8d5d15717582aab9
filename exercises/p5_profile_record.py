"""P5 — 读一份 profile，并让一次运行可复现。

课程问（第七篇 · 二、逐篇回顾 · 第六篇，核心问题；也是 总纲 · 八、自测清单：五件做出来的事 之一）::

    不写 kernel，能不能解释一次训练为什么慢、一次推理为什么快不起来、一个 OOM 从哪里来？三个月后能不能复现今天这次实验？

读一张一步训练的真实 ``torch.profiler`` 表；然后让一次运行可复现：一个由同一 seed 给出同一次运行的
DataLoader，以及课程的最小运行记录，以 JSON 存在运行旁边。

评分器测什么：你的汇总与一份真实 profile 的同样的行相比；一个很小的模型用你的 loader 训练三次（同一 seed
两次，另一个 seed 一次），在一个全局随机数生成器已从操作系统重新播种的新进程里；你的记录与评分器准备好的
git 仓库、数据文件和解释器相比，以及你保存的 JSON。

学习：第六篇 · 必记；第六篇 · 结论；第一篇 · 结论；总纲 · 七、实验工具：让三个月前的结果能复现。

English
-------

P5 — read a profile, and make a run reproducible.

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
    """以普通行给出的 profiler 表中的 top op，以及 backward/forward 之比。

    参数：
        rows: 几步训练的一份真实 CPU profile 的 ``prof.key_averages()``，每行一个 dict：
            ``{"name": str, "self_cpu_time_us": float, "cpu_time_total_us": float,
            "count": int}``（微秒；``self`` 不含该行调用的 op，``total`` 包含它们）。这一步在
            ``record_function("forward")`` 和 ``record_function("backward")`` 内运行，所以有两行名为
            ``"forward"`` 和 ``"backward"``。
        k: 返回多少个 top op。

    返回：
        一个 dict：``"top_ops"``，在 op 自身花时间最多的 ``k`` 个 ``aten::`` 行的名字组成的 list，
        从大到小（相同时按名字）；``"backward_forward_ratio"``（float），``"backward"`` 行的总时间
        除以 ``"forward"`` 行的总时间。

    出处：第六篇 · 必记；第六篇 · 结论。

    English
    -------

    The top ops and the backward/forward ratio of a profiler table given as plain rows.

    Args:
        rows: one dict per row of ``prof.key_averages()`` of a real CPU profile of a few training
            steps: ``{"name": str, "self_cpu_time_us": float, "cpu_time_total_us": float,
            "count": int}`` (microseconds; ``self`` excludes the ops a row calls, ``total``
            includes them). The step ran inside ``record_function("forward")`` and
            ``record_function("backward")``, so two rows are named ``"forward"`` and
            ``"backward"``.
        k: how many top ops to return.

    Returns:
        A dict: ``"top_ops"``, a list of the ``k`` names of the ``aten::`` rows that took the
        most time in the op itself, largest first (ties by name); and
        ``"backward_forward_ratio"`` (float), the total time of the ``"backward"`` row divided
        by that of the ``"forward"`` row.

    Source: 第六篇 · 必记 / part 6, must-remember; 第六篇 · 结论 / part 6, conclusion.
    """
    raise NotImplementedError("P5: summarize_profile")


def make_loader(dataset, seed: int, batch_size: int):
    """一个在 ``dataset`` 上、``shuffle=True``、``num_workers=2``、``batch_size`` 的
    ``torch.utils.data.DataLoader``，它的整次运行由 ``seed`` 决定。

    评分器的 dataset 在 ``__getitem__`` 里从 ``np.random``、``random`` 和 ``torch`` 抽取噪声；在你的函数
    运行之前，每个全局随机数生成器都已从操作系统重新播种（就像在一个新进程里）。

    测的是：同一 seed 两次给出完全相同的指标；另一个 seed 给出不同的；一个 epoch 里没有两个样本得到同样的噪声。

    出处：第六篇 · 必记；第一篇 · 结论。

    English
    -------

    A ``torch.utils.data.DataLoader`` over ``dataset`` with ``shuffle=True``,
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
    """这次运行的课程最小记录，一个能转成 JSON 的 dict。

    参数：
        run: 运行结束时关于它所知道的东西，比一条记录需要的多（其中哪些进记录、记录还需要什么，由你
            决定）：一个 dict，键为 ``"config"``（dict）、``"data_path"``（str，训练数据文件）、
            ``"host"``（str）、``"metrics"``（dict）、``"notes"``（str）、``"output_dir"``（str）、
            ``"repo_dir"``（str，训练代码的 git 仓库，其所有者是另一个用户，不是运行你代码的用户）、
            ``"id"``（str，运行的标识）、``"seed"``（int）、``"started_at"``（str，ISO 8601）和
            ``"user"``（str）。

    返回：
        课程的记录的每一项一个条目，键为简短的名字（用课程的说法，中文或英文，或常见的同义词，按意思
        匹配），没有别的条目。它所含的任何值的约定（种类比一条记录需要的多）：从 ``run`` 取来的值按原样
        记录；描述一个文件或文件夹的值描述它现在的样子：git 仓库用 git 对它的 ``HEAD`` 报告的完整 sha，
        文件内容用其字节的 SHA-256 十六进制摘要，大小以字节计（int）；软件用一个 dict，从每个已安装的
        distribution 的名字映射到其版本字符串，其中包括 ``"torch"``；时间是 ISO 8601 字符串；机器用它的
        主机名。

    出处：第六篇 · 必记；总纲 · 七、实验工具。

    English
    -------

    The course's minimal record of this run, as a JSON-able dict.

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
        (int); software by a dict from each installed distribution's name to its version
        string, ``"torch"`` among them; a time is an ISO 8601 string; a machine by its host
        name.

    Source: 第六篇 · 必记 / part 6, must-remember; 总纲 · 七、实验工具 / L1 overview, §七.
    """
    raise NotImplementedError("P5: make_run_record")


def save_run_record(record: dict, run_dir: str) -> str:
    """把 ``record`` 以 JSON 写到 ``<run_dir>/run_record.json``，返回这个路径（str）。

    出处：第六篇 · 结论；第一篇 · 结论。

    English
    -------

    Write ``record`` as JSON to ``<run_dir>/run_record.json`` and return that path (a str).

    Source: 第六篇 · 结论 / part 6, conclusion; 第一篇 · 结论 / part 1, conclusion.
    """
    raise NotImplementedError("P5: save_run_record")
