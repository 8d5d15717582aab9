"""X1 的预处理步骤：CPU 密集的纯 Python 计算，评分器知道它结果的闭式。

给定的，不是考的：这道练习考的是怎么让它跑得快，而不是它算什么。

English
-------

X1's preprocessing step: CPU-bound pure-Python work whose result the grader knows in closed form.

Given, not asked: the exercise is how to run it fast, not what it computes.
"""


def busy(n: int) -> int:
    """``sum(i * i % 7 for i in range(n))``，每个 i 一次字节码循环迭代。

    English
    -------

    ``sum(i * i % 7 for i in range(n))``, one bytecode loop iteration per i.
    """
    s = 0
    for i in range(n):
        s += i * i % 7
    return s
