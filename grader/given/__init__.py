"""学习者可见：学习者的进程唯一可以导入的评分器代码（练习所依赖的模型、数据和循环）。这里决不能有答案的任何部分：
参考数据的路径、做法、阈值和判定都放在 grader/checks/truth/。

English
-------

LEARNER-VISIBLE: the only grader code a learner's process may import (models, data and loops
the exercises build on). It must never hold any part of an answer: reference data paths,
recipes, thresholds and judges belong in grader/checks/truth/.
"""
