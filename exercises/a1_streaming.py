"""A1 — a JSONL corpus: read whole, or streamed.

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
    """A generator over the records of the JSONL file at ``path``, one dict per record, in file
    order (lines that hold only whitespace are skipped).

    Source: 第一篇 · 结论 / part 1, conclusion (the pipeline).
    """
    raise NotImplementedError("A1: read_jsonl")


def keep_long(records: Iterable[dict], min_chars: int) -> Iterator[dict]:
    """A generator over the records whose ``text`` has at least ``min_chars`` characters
    (characters of the str, not bytes).

    Source: 第一篇 · 结论 / part 1, conclusion (the pipeline).
    """
    raise NotImplementedError("A1: keep_long")


def dedupe(records: Iterable[dict]) -> Iterator[dict]:
    """A generator over the records whose ``text`` did not occur in an earlier record (exact
    duplicates of the text only; other fields do not matter; the first occurrence is kept).

    Source: 第一篇 · 结论 / part 1, conclusion; 第七篇 · C. 面试题, question 7 / part 7, §五.C q7.
    """
    raise NotImplementedError("A1: dedupe")


def count_stats(records: Iterable[dict]) -> dict:
    """Consume ``records``; return ``{"records": how many, "chars": total characters of their
    texts}`` (ints).

    Source: 第一篇 · 结论 / part 1, conclusion (the pipeline).
    """
    raise NotImplementedError("A1: count_stats")


def pipeline(path: str, min_chars: int) -> dict:
    """read -> keep_long -> dedupe -> count over the file at ``path``, in one pass.

    Returns:
        A dict of ints: ``{"read": records read, "kept": records that passed keep_long,
        "unique": records that passed dedupe, "chars": total characters of the unique texts}``.

    Measured: the counts, and the peak resident memory and peak address space of your process,
    read from /proc outside it, on a small and a large file with the same distinct texts; then
    a run under an address-space limit (RLIMIT_AS, set before your module is imported) well
    below what holding the file's records would take.

    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q1.
    """
    raise NotImplementedError("A1: pipeline")


def fits_in_memory(file_gb: float, ram_gb: float) -> bool:
    """Does ``json.loads``-ing every line of a ``file_gb`` GB JSONL file into one list fit in
    ``ram_gb`` GB of RAM?

    Returns:
        A plain bool.

    Measured: against the peak the grader measures for a list of ``json.loads``'d records
    (``tracemalloc``, on records like the ones above), on cases that are clear either way, and
    on the course's question.

    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q1.
    """
    raise NotImplementedError("A1: fits_in_memory")
