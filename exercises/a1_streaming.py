"""A1 — 一份 JSONL 语料：整份读入，还是流式读。

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 1 题）::

    一份 8 GB 的 JSONL，机器内存 32 GB。json.loads 后读成 list 能不能装下？用生成器峰值大约多少？

这里你写 读取 -> 过滤 -> 去重 -> 计数 的生成器版本，以及对 list 版本的判断。只用标准库。

记录：每行一个 JSON 对象，例如 ``{"id": 3, "text": "loss model shape 批次 eval step
shape loss 批次 model", "lang": "en", "score": 0.033}``：text 为 1 到 24 个词，中英文混合，
平均每行约 130 字节；文件为 UTF-8；只有空白的行不是记录。

评分器测什么：在生成的文件上的计数，以及在一个小文件和一个大文件上（还有在导入你的模块之前设好的
地址空间上限下）从进程外读到的流水线峰值内存；``fits_in_memory`` 与评分器在真实记录上测得的 list
峰值相比。

学习：第一篇 · 必记；第七篇 · 四、常见误区。

English
-------

A1 — a JSONL corpus: read whole, or streamed.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 1)::

    一份 8 GB 的 JSONL，机器内存 32 GB。json.loads 后读成 list 能不能装下？用生成器峰值大约多少？

    An 8 GB JSONL file, a machine with 32 GB of RAM. Does it fit once read into a list with
    json.loads? With generators, what is the peak, roughly?

Here you write the generator version of read -> filter -> dedupe -> count, and the judgement
for the list version. Use the standard library only.

The records: one JSON object per line, e.g. ``{"id": 3, "text": "loss model shape 批次 eval step
shape loss 批次 model", "lang": "en", "score": 0.033}``: a text of 1 to 24 words, English and
Chinese mixed, about 130 bytes a line on average; files are UTF-8; a line with only whitespace is
not a record.

What the grader measures: the counts on generated files, and the pipeline's peak memory read
from outside its process on a small and a large file (and under an address-space limit set
before your module is imported); ``fits_in_memory`` against the list's peak the grader
measures on real records.

Study: 第一篇 · 必记 / part 1, must-remember; 第七篇 · 四、常见误区 / part 7, §四.
"""

from collections.abc import Iterable, Iterator


def read_jsonl(path: str) -> Iterator[dict]:
    """对 ``path`` 处 JSONL 文件中记录的生成器，每条记录一个 dict，按文件顺序（只有空白的行跳过）。

    出处：第一篇 · 结论（流水线）。

    English
    -------

    A generator over the records of the JSONL file at ``path``, one dict per record, in file
    order (lines that hold only whitespace are skipped).

    Source: 第一篇 · 结论 / part 1, conclusion (the pipeline).
    """
    raise NotImplementedError("A1: read_jsonl")


def keep_long(records: Iterable[dict], min_chars: int) -> Iterator[dict]:
    """对 ``text`` 至少有 ``min_chars`` 个字符（str 的字符，不是字节）的记录的生成器。

    出处：第一篇 · 结论（流水线）。

    English
    -------

    A generator over the records whose ``text`` has at least ``min_chars`` characters
    (characters of the str, not bytes).

    Source: 第一篇 · 结论 / part 1, conclusion (the pipeline).
    """
    raise NotImplementedError("A1: keep_long")


def dedupe(records: Iterable[dict]) -> Iterator[dict]:
    """对 ``text`` 没有在更早的记录里出现过的记录的生成器（只看 text 完全相同的重复；其他字段无关；保留
    第一次出现的）。

    出处：第一篇 · 结论；第七篇 · C. 面试题（第 7 题）。

    English
    -------

    A generator over the records whose ``text`` did not occur in an earlier record (exact
    duplicates of the text only; other fields do not matter; the first occurrence is kept).

    Source: 第一篇 · 结论 / part 1, conclusion; 第七篇 · C. 面试题, question 7 / part 7, §五.C q7.
    """
    raise NotImplementedError("A1: dedupe")


def count_stats(records: Iterable[dict]) -> dict:
    """消费 ``records``；返回由两个 int 组成的 dict：``"records"``，记录条数；``"chars"``，它们 text
    的字符总数。

    出处：第一篇 · 结论（流水线）。

    English
    -------

    Consume ``records``; return a dict of two ints: ``"records"``, how many records there are,
    and ``"chars"``, the total characters of their texts.

    Source: 第一篇 · 结论 / part 1, conclusion (the pipeline).
    """
    raise NotImplementedError("A1: count_stats")


def pipeline(path: str, min_chars: int) -> dict:
    """对 ``path`` 处的文件做 read -> keep_long -> dedupe -> count，一遍完成。

    返回：
        int 组成的 dict：``"read"``，读到的记录数；``"kept"``，通过 keep_long 的记录数；
        ``"unique"``，通过 dedupe 的记录数；``"chars"``，去重后 text 的字符总数。

    测的是：计数，以及你的进程的峰值常驻内存和峰值地址空间（从进程外读 /proc），在一个小文件和一个
    含同样不同 text 的大文件上；然后在一个地址空间上限（RLIMIT_AS，在导入你的模块之前设好）下再跑一次，
    这个上限远低于把文件的记录都留在内存里所需的量。

    出处：第一篇 · 必记；第七篇 · A. 判断与计算（第 1 题）。

    English
    -------

    read -> keep_long -> dedupe -> count over the file at ``path``, in one pass.

    Returns:
        A dict of ints: ``"read"``, the records read; ``"kept"``, the records that passed
        keep_long; ``"unique"``, the records that passed dedupe; ``"chars"``, the total
        characters of the unique texts.

    Measured: the counts, and the peak resident memory and peak address space of your process,
    read from /proc outside it, on a small and a large file with the same distinct texts; then
    a run under an address-space limit (RLIMIT_AS, set before your module is imported) well
    below what holding the file's records would take.

    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q1.
    """
    raise NotImplementedError("A1: pipeline")


def fits_in_memory(file_gb: float, ram_gb: float) -> bool:
    """把一个 ``file_gb`` GB 的 JSONL 文件每一行都 ``json.loads`` 进一个 list，在 ``ram_gb`` GB 内存里
    装得下吗？

    返回：
        一个普通的 bool。

    测的是：与评分器对一个由 ``json.loads`` 得到的记录组成的 list 测得的峰值（``tracemalloc``，在像上面
    那样的记录上）相比，在两边都明确的情形上，以及在课程的这道题上。

    出处：第一篇 · 必记；第七篇 · A. 判断与计算（第 1 题）。

    English
    -------

    Does ``json.loads``-ing every line of a ``file_gb`` GB JSONL file into one list fit in
    ``ram_gb`` GB of RAM?

    Returns:
        A plain bool.

    Measured: against the peak the grader measures for a list of ``json.loads``'d records
    (``tracemalloc``, on records like the ones above), on cases that are clear either way, and
    on the course's question.

    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q1.
    """
    raise NotImplementedError("A1: fits_in_memory")
