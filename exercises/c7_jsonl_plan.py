"""C7 — clean, dedupe and tokenize a 10 GB JSONL, fast and within memory.

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
    """Every run of whitespace becomes one space, and both ends are stripped
    (``" a \\t b\\n"`` becomes ``"a b"``).

    Source: 第一篇 · 结论 / part 1, conclusion (the pipeline).
    """
    raise NotImplementedError("C7: clean")


def unique_texts(path: str, min_chars: int):
    """An iterator over the file's cleaned texts: each line is ``json.loads``-ed and its
    ``"text"`` cleaned; a text shorter than ``min_chars`` characters is dropped, and so is an
    exact repeat of a cleaned text seen earlier; the rest are yielded in file order. The grader's
    memory allowance (its threshold): on the same documents repeated 8x, your process's peak
    resident memory may exceed its peak on the file by at most the 8x file's extra bytes on disk.

    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q7.
    """
    raise NotImplementedError("C7: unique_texts")


def tokenize(text: str) -> list[int]:
    """The CPU-bound step: the UTF-8 bytes of ``text`` as a list of ints (a byte-level tokenizer).

    Source: 第一篇 · 结论 / part 1, conclusion.
    """
    raise NotImplementedError("C7: tokenize")


def process_file(path: str, min_chars: int, n_workers: int) -> dict:
    """The whole plan: the texts of ``unique_texts``, each tokenized with :func:`tokenize`, the
    tokenizing run so that it keeps ``n_workers`` CPU cores busy at once; everything it starts
    has finished before it returns. Memory: like :func:`unique_texts`, its peak must not grow with
    the texts it handles. The grader's allowance (its threshold, not a course number): on a file
    with about 4x the unique texts of a smaller one, your process's peak resident memory may exceed
    its peak on the smaller file by at most 0.5 times the larger file's extra bytes on disk (about
    13 MB on the grader's files).

    Returns ``{"documents": number of unique texts kept, "tokens": total tokens}`` (ints).
    Source: 第一篇 · 必记 / part 1, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q7.
    """
    raise NotImplementedError("C7: process_file")


def why_not_linear() -> list[str]:
    """Follow-up: why does the course's parallel version of its CPU-bound preprocessing, 8 workers
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
