"""学习者的代码用错给定模块时，给定模块对学习者说的话（一个异常的消息）。

学习者的进程里没有消息目录，所以给定模块抛出的是这里的英文模板之一（填好字段）；评分器一侧把填了其中
一个模板的消息通过消息目录换成读者的语言（grader.isolation.learner.GIVEN_SAYS 列出同样的模板）。

English
-------

What the given modules say to a learner when their code misuses them (an exception's message).

The learner's process holds no message catalog, so a given module raises with one of these English
templates, filled; the check side reads a raised message that fills one of them in the reader's
language through the catalog (grader.isolation.learner.GIVEN_SAYS lists the same templates).
"""

TOO_LONG = "sequence of {n} tokens is longer than block_size {block_size}"

TEMPLATES = (TOO_LONG,)
