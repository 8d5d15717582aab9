"""C6 — 让人信得过的结论。

课程问（第七篇 · 五、通关自测 · C. 面试题，第 6 题）::

    你的实验结论要让人信，从设计到记录你会做哪些事？

用代码作答；然后是追问方向。准确率是 [0, 1] 内的小数。

评分器测什么：你的统计量与 numpy 在抽取的 seed 值上的结果以及精确的正态分位数相比；你的题目列表与抽取的
评测表的 inner merge 相比；你的运行记录与评分器准备好的 git 仓库、数据文件和解释器相比；你的实验用同一个
seed 和其他 seed 重跑。

学习：第二篇 · 必记；第六篇 · 必记；第七篇 · 三、贯穿全系列的几条线（第 5 条）。

English
-------

C6 — a conclusion people can trust.

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
    """一个配置的指标在各 seed 上的 ``(mean, std)``：均值，以及样本标准差（ddof=1）。

    出处：第二篇 · 结论。

    English
    -------

    ``(mean, std)`` of one config's metric over seeds: the mean, and the sample standard deviation
    (ddof=1).

    Source: 第二篇 · 结论 / part 2, conclusion.
    """
    raise NotImplementedError("C6: seed_summary")


def bands_overlap(a: list[float], b: list[float], k: float = 1.0, spread: str = "std") -> bool:
    """两个配置的带是否重叠？每条带由它的 seed 值画出，就像课程给一个配置在各 seed 上的离散程度画阴影那样（用
    :func:`seed_summary` 的统计量）。返回一个普通的 bool。

    带宽约定：每条带是 ``mean ± k × s``，当 ``spread == "std"`` 时 ``s`` 是 seed 值的样本标准差，当
    ``spread == "sem"`` 时是它们均值的标准误（那个标准差除以 n 的平方根，n 为 seed 个数）。

    出处：第二篇 · 必记；第七篇 · C. 面试题（第 6 题）。

    English
    -------

    Do the bands of two configs overlap, each band drawn from its seed values as the course
    shades a config's spread over seeds (with :func:`seed_summary`'s statistics)? Returns a
    plain bool.

    Band width convention: each band is ``mean ± k × s``, where ``s`` is the sample standard
    deviation of the seed values when ``spread == "std"``, and the standard error of their mean
    (that standard deviation divided by the square root of n, n the number of seeds) when ``spread == "sem"``.

    Source: 第二篇 · 必记 / part 2, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q6.
    """
    raise NotImplementedError("C6: bands_overlap")


def ci95_half_width(p: float, n: int) -> float:
    """在 ``n`` 道题上测得的准确率 ``p`` 的 95% 置信区间的半宽，按课程的算法（一个小数，同 ``p``）。

    出处：第二篇 · 必记。

    English
    -------

    The half-width of the 95% confidence interval of an accuracy ``p`` measured on ``n``
    questions, as the course computes it (a fraction, like ``p``).

    Source: 第二篇 · 必记 / part 2, must-remember.
    """
    raise NotImplementedError("C6: ci95_half_width")


def changed_questions(results_a: list[tuple[str, bool]], results_b: list[tuple[str, bool]]) -> dict:
    """两次评测之间结论改变了的那些题。

    参数：
        results_a, results_b: 旧的和新的一次运行的 ``(question_id, correct)`` 对；id 在一张表内唯一；
            只有两边都有的 id 才算。

    返回：
        ``{"improved": [...], "degraded": [...]}``：improved 是在 a 里错、在 b 里对的 id（排好序），
        degraded 是在 a 里对、在 b 里错的 id（排好序）。

    出处：第二篇 · 结论；第七篇 · C. 面试题（第 6 题）。

    English
    -------

    The questions whose verdict changed between two eval runs.

    Args:
        results_a, results_b: ``(question_id, correct)`` pairs of the old and the new run; ids
            are unique within a table; only ids present in both count.

    Returns:
        ``{"improved": [...], "degraded": [...]}``: improved, the sorted ids wrong in a and right in
        b; degraded, the sorted ids right in a and wrong in b.

    Source: 第二篇 · 结论 / part 2, conclusion; 第七篇 · C. 面试题 / part 7, §五.C q6.
    """
    raise NotImplementedError("C6: changed_questions")


def run_record(run: dict) -> dict:
    """一次运行的最小记录，按课程的定义。

    参数：
        run: 运行结束时关于它所知道的东西，比一条记录需要的多（其中哪些进记录、记录还需要什么，由你
            决定）：一个 dict，键为 ``"config"``（dict）、``"data_path"``（str，训练数据文件）、
            ``"host"``（str）、``"metrics"``（dict）、``"notes"``（str）、``"output_dir"``（str）、
            ``"repo_dir"``（str，训练代码的 git 仓库，其所有者是另一个用户，不是运行你代码的用户）、
            ``"id"``（str，运行的标识）、``"seed"``（int）、``"started_at"``（str，ISO 8601）和
            ``"user"``（str）。

    返回：
        一个 dict，那条记录的每一项一个条目，键为简短的名字（用课程的说法，中文或英文，或常见的同义词，
        按意思匹配），没有别的条目。它所含的任何值的约定（种类比一条记录需要的多）：从 ``run`` 取来的
        值按原样记录；描述一个文件或文件夹的值描述它现在的样子：git 仓库用 git 对它的 ``HEAD`` 报告的
        完整 sha，文件内容用其字节的 SHA-256 十六进制摘要，大小以字节计（int）；软件用一个 dict，从每个
        已安装的 distribution 的名字映射到其版本字符串，其中包括 ``"torch"``；时间是 ISO 8601 字符串；
        机器用它的主机名。

    出处：第六篇 · 必记；第七篇 · C. 面试题（第 6 题）。

    English
    -------

    The minimal record of one run, as the course defines it.

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
        (int); software by a dict from each installed distribution's name to its version
        string, ``"torch"`` among them; a time is an ISO 8601 string; a machine by its host
        name.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q6.
    """
    raise NotImplementedError("C6: run_record")


def seeded_experiment(seed: int) -> float:
    """一个结果取决于 ``seed`` 的很小的实验（例如在一个小的随机回归问题上做几步 SGD）；返回它最后的 loss，
    float。

    测的是：评分器用同一个 seed 调用它两次（中间夹着另一个 seed 的运行），以及用其他 seed 调用。

    出处：第六篇 · 必记；第七篇 · C. 面试题（第 6 题）。

    English
    -------

    A tiny experiment whose result depends on ``seed`` (for instance a few SGD steps on a
    small random regression problem); returns its final loss as a float.

    Measured: the grader calls it twice with the same seed (with another seed's run in between)
    and with other seeds.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q6.
    """
    raise NotImplementedError("C6: seeded_experiment")
