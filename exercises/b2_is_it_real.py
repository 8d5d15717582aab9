"""B2 — half a point better: is it real?

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
    """Where two runs' records say they were not run the same way.

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
    """Is the difference between two configs real?

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
