"""B2 — 好了半个点：是真的吗？

课程问（第七篇 · 五、通关自测 · B. 跨篇综合，第 2 题）::

    两次”同样配置”的 SFT，评测差 0.5 个点，同事说新配置更好。用哪几篇的什么判断？

用代码作答：先看两次运行的记录说了什么，再看分数说了什么。准确率是 [0, 1] 内的小数。

评分器测什么：你对抽取的成对运行记录给出的列表；
你对抽取的各 seed 分数与评测集大小、以及与课程类似的情形给出的判断，都避开舍入的边界。

学习：第六篇 · 必记；第二篇 · 必记；第七篇 · 三、贯穿全系列的几条线（第 5 条）。

English
-------

B2 — half a point better: is it real?

The course asks (第七篇 · 五、通关自测 · B. 跨篇综合, question 2)::

    两次”同样配置”的 SFT，评测差 0.5 个点，同事说新配置更好。用哪几篇的什么判断？

    Two SFT runs with "the same config" differ by 0.5 points on the eval; a colleague says the
    new config is better. With what from which parts do you judge it?

Answer it as code: first what the two runs' records say, then what the scores say.
Accuracies are fractions in [0, 1].

What the grader measures: your list on drawn pairs of run records; your verdict on drawn seed
scores and eval sizes, and on the course-like cases, away from rounding edges.

Study: 第六篇 · 必记 / part 6, must-remember; 第二篇 · 必记 / part 2, must-remember;
第七篇 · 三、贯穿全系列的几条线 / part 7, §三.5.
"""


def diff_records(a: dict, b: dict) -> list[str]:
    """两次运行的记录在哪些地方说明它们不是以同样的方式跑的。

    参数：
        a, b: 两次运行的运行记录：dict，键是课程的最小运行记录的各项（评分器的 snake_case
            名字；值为 str、int 或 dict）。``a`` 与 ``b`` 的键相同；每个键的含义从它的名字读出。

    返回：
        排好序的键的 list，拼写与 ``a`` 和 ``b`` 中完全一致：这些键的不同意味着两次运行不能当作
        “同样配置”来比较（没有这类不同时为空 list）。

    出处：第六篇 · 必记；第七篇 · B. 跨篇综合（第 2 题）。

    English
    -------

    Where two runs' records say they were not run the same way.

    Args:
        a, b: the run records of the two runs: dicts keyed by the items of the course's minimal
            run record (the grader's snake_case names; values are str, int or dicts). ``a`` and
            ``b`` have the same keys; what each key means is read from its name.

    Returns:
        The sorted list of keys, spelled exactly as in ``a`` and ``b``, whose difference means the two runs are not
        comparable as "the same config" (an empty list when nothing like that differs).

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · B. 跨篇综合 / part 7, §五.B q2.
    """
    raise NotImplementedError("B2: diff_records")


def verdict(scores_a: list[float], scores_b: list[float], n_questions: int) -> str:
    """两个配置之间的差别是真的吗？

    参数：
        scores_a, scores_b: 每个配置的评测准确率，每个 seed 一个。
        n_questions: 评测集的大小。

    返回：
        某个配置的 seed 太少、量不出它们之间的任何离散程度时（其样本标准差无定义）返回
        ``"need_more_seeds"``；否则，课程针对 seed 的工具与针对评测集大小的工具各自都显示出差别
        时（两者都必须）返回 ``"real"``，其余情况返回 ``"not_shown"``。
        判断依据 seed 的离散程度时的约定：一个配置的带是它的均值加减一个均值标准误（其各 seed
        值的样本标准差除以它们个数的平方根），在这个宽度下，课程自己每个配置五个 seed 的例子
        读出它所说的结论。判断依据评测集大小时的约定：准确率的 95% 区间取在 ``p`` = 两个配置
        平均准确率的均值处，``n = n_questions``。

    出处：第二篇 · 必记；第七篇 · B. 跨篇综合（第 2 题）。

    English
    -------

    Is the difference between two configs real?

    Args:
        scores_a, scores_b: the eval accuracies of each config, one per seed.
        n_questions: the size of the eval set.

    Returns:
        ``"need_more_seeds"`` when a config has too few seeds to measure any spread between
        them (its sample standard deviation is undefined); otherwise
        ``"real"`` when the course's tools for seeds and for an eval's size each show a
        difference (both must), ``"not_shown"`` otherwise.
        Convention where a judgement rests on the seeds' spread: a config's band is its mean
        plus or minus one standard error of that mean (the sample standard deviation of its seed
        values divided by the square root of their number), the width under which the course's
        own example of five seeds per config reads as it does. Convention where it rests on the
        eval's size: the 95% interval of an accuracy is taken at ``p`` = the mean of the two
        configs' mean accuracies, with ``n = n_questions``.

    Source: 第二篇 · 必记 / part 2, must-remember; 第七篇 · B. 跨篇综合 / part 7, §五.B q2.
    """
    raise NotImplementedError("B2: verdict")
