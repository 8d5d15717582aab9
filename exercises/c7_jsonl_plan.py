"""C7 — 清洗、去重、tokenize 一份 10 GB 的 JSONL，又快又不爆内存。

课程问（第七篇 · 五、通关自测 · C. 面试题，第 7 题）::

    一份 10 GB 的 JSONL 要清洗、去重、tokenize，机器 16 GB 内存 8 核，怎么做到又快又不爆内存？

这里方案真的在生成的 JSONL 文件上运行；每行是 ``{"text": "..."}``。然后是追问方向。

评分器测什么：你的 text 与一次普通的串行处理相比；你的进程的峰值常驻内存（从进程外读 /proc），在一个
文件上和在同样文档重复 8x 的文件上；tokenize 的 CPU 时间花在哪里（从进程外读内核的记账）；你对追问的
回答与课程的相比。

学习：第一篇 · 必记；第一篇 · 结论；第七篇 · C. 面试题（第 7 题）。

English
-------

C7 — clean, dedupe and tokenize a 10 GB JSONL, fast and within memory.

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 7)::

    一份 10 GB 的 JSONL 要清洗、去重、tokenize，机器 16 GB 内存 8 核，怎么做到又快又不爆内存？

    A 10 GB JSONL must be cleaned, deduplicated and tokenized on a machine with 16 GB of RAM and
    8 cores: how do you make it fast without running out of memory?

Here the plan runs for real, on generated JSONL files; each line is ``{"text": "..."}``. Then
the follow-up direction.

What the grader measures: your texts against a plain serial pass; the peak resident memory of
your process, read from /proc outside it, on a file and on the same documents repeated 8x;
where the CPU time of the tokenizing is spent, read from the kernel's accounting outside your
process; your answer to the follow-up against the course's.

Study: 第一篇 · 必记 / part 1, must-remember; 第一篇 · 结论 / part 1, conclusion;
第七篇 · C. 面试题 / part 7, §五.C q7.
"""


def clean(text: str) -> str:
    """每一段连续空白变成一个空格，两端去掉空白
    （``" a \\t b\\n"`` 变成 ``"a b"``）。

    出处：第一篇 · 结论（流水线）。

    English
    -------

    Every run of whitespace becomes one space, and both ends are stripped
    (``" a \\t b\\n"`` becomes ``"a b"``).

    Source: 第一篇 · 结论 / part 1, conclusion (the pipeline).
    """
    raise NotImplementedError("C7: clean")


def unique_texts(path: str, min_chars: int):
    """文件中清洗后的 text 的迭代器：每行 ``json.loads`` 之后清洗它的 ``"text"``；短于 ``min_chars`` 个
    字符的 text 丢掉，与更早见过的清洗后的 text 完全重复的也丢掉；其余按文件顺序逐个给出。评分器的内存
    允许量（它的阈值）：在同样文档重复 8x 的文件上，你的进程的峰值常驻内存最多可以比在原文件上的峰值
    多出 8x 文件在磁盘上多出的字节数。

    出处：第一篇 · 必记；第七篇 · C. 面试题（第 7 题）。

    English
    -------

    An iterator over the file's cleaned texts: each line is ``json.loads``-ed and its
    ``"text"`` cleaned; a text shorter than ``min_chars`` characters is dropped, and so is an
    exact repeat of a cleaned text seen earlier; the rest are yielded in file order. The grader's
    memory allowance (its threshold): on the same documents repeated 8x, your process's peak
    resident memory may exceed its peak on the file by at most the 8x file's extra bytes on disk.

    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q7.
    """
    raise NotImplementedError("C7: unique_texts")


def tokenize(text: str) -> list[int]:
    """CPU 密集的那一步：``text`` 的 UTF-8 字节，作为 int 组成的 list（一个字节级 tokenizer）。

    出处：第一篇 · 结论。

    English
    -------

    The CPU-bound step: the UTF-8 bytes of ``text`` as a list of ints (a byte-level tokenizer).

    Source: 第一篇 · 结论 / part 1, conclusion.
    """
    raise NotImplementedError("C7: tokenize")


def process_file(path: str, min_chars: int, n_workers: int) -> dict:
    """整个方案：``unique_texts`` 的 text，每个用 :func:`tokenize` tokenize，tokenize 的运行方式要让
    ``n_workers`` 个 CPU 核同时忙着；它启动的一切都在它返回之前结束。内存：同 :func:`unique_texts`，
    它的峰值不能随它处理的 text 增长。评分器的允许量（它的阈值，不是课程的数字）：在一个 unique text
    约为较小文件 4x 的文件上，你的进程的峰值常驻内存最多可以比在较小文件上的峰值多出较大文件在磁盘上
    多出字节数的 0.5 倍（在评分器的文件上约 13 MB）。

    返回由 int 组成的 dict：``"documents"``，保留的 unique text 个数；``"tokens"``，token 总数。
    出处：第一篇 · 必记；第七篇 · C. 面试题（第 7 题）。

    English
    -------

    The whole plan: the texts of ``unique_texts``, each tokenized with :func:`tokenize`, the
    tokenizing run so that it keeps ``n_workers`` CPU cores busy at once; everything it starts
    has finished before it returns. Memory: like :func:`unique_texts`, its peak must not grow with
    the texts it handles. The grader's allowance (its threshold, not a course number): on a file
    with about 4x the unique texts of a smaller one, your process's peak resident memory may exceed
    its peak on the smaller file by at most 0.5 times the larger file's extra bytes on disk (about
    13 MB on the grader's files).

    Returns a dict of ints: ``"documents"``, the number of unique texts kept, and ``"tokens"``,
    the total tokens.
    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q7.
    """
    raise NotImplementedError("C7: process_file")


def why_not_linear() -> list[str]:
    """追问：课程对它的 CPU 密集预处理的并行版本，8 核上 8 个 worker，为什么达不到 8x 的加速？返回原因的键
    （str 组成的 list，顺序不限），从以下选择：

    - ``"startup"``：启动 worker；
    - ``"serialization"``：序列化每一个发给 worker 的条目和每一个发回的结果；
    - ``"one_lock"``：所有 worker 共享的一把解释器锁；
    - ``"shared_memory"``：worker 给它们共享的内存加锁；
    - ``"gc"``：Python 的垃圾回收器让 worker 暂停。

    出处：第一篇 · 必记；第七篇 · C. 面试题（追问方向）（第 7 题）。

    English
    -------

    Follow-up: why does the course's parallel version of its CPU-bound preprocessing, 8 workers
    on 8 cores, fall short of an 8x speed-up? Returns the keys of the causes (a list of str, in
    any order), chosen from:

    - ``"startup"``: starting the workers;
    - ``"serialization"``: serializing every item sent to a worker and every result sent back;
    - ``"one_lock"``: one interpreter lock that all the workers share;
    - ``"shared_memory"``: the workers locking the memory they share;
    - ``"gc"``: Python's garbage collector pausing the workers.

    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q7, follow-up
    directions.
    """
    raise NotImplementedError("C7: why_not_linear")
