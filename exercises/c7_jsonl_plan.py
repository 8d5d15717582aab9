"""C7 — a 10 GB JSONL must be cleaned, deduplicated and tokenized on a 16 GB, 8-core machine:
fast and without running out of memory (part 7, §五.C question 7; parts 1 and 5).

Read it as a chain of generators (one record in memory, plus the set of hashes seen), and send
the CPU-bound part (tokenizing) to a ``multiprocessing.Pool`` with a ``chunksize``. Here the
plan runs for real on generated JSONL files; each line is ``{"text": "..."}``.
"""


def clean(text: str) -> str:
    """Collapse every run of whitespace into one space and strip both ends: ``" ".join(text.split())``.
    Source: part 1, the read -> filter -> dedupe pipeline.
    """
    raise NotImplementedError("C7: clean")


def unique_texts(path: str, min_chars: int):
    """A generator (not a list) over the file: read each line, ``json.loads`` it, clean its
    ``"text"``, drop it if shorter than ``min_chars`` characters, drop it if the exact cleaned
    text was seen before (keep a set of SHA-256 digests of the cleaned texts, not the texts), and
    yield the cleaned text. First occurrences keep their order.

    Memory must not grow with the file beyond the set of hashes. Source: part 1, must-remember
    "a generator's peak is independent of file size"; part 7 §五.C question 7, key points 1 and 4.
    """
    raise NotImplementedError("C7: unique_texts")


def tokenize(text: str) -> list[int]:
    """The CPU-bound step: the UTF-8 bytes of ``text`` as a list of ints (a byte-level tokenizer).
    Must be a module-level function so a process pool can pickle it. Source: part 1.
    """
    raise NotImplementedError("C7: tokenize")


def process_file(path: str, min_chars: int, n_workers: int, chunksize: int) -> dict:
    """The whole plan: ``unique_texts`` feeds ``multiprocessing.Pool(n_workers).imap(tokenize,
    texts, chunksize=chunksize)`` (a process pool, not threads: the GIL; chunksize sends a batch
    per pickle round-trip).

    Returns ``{"documents": number of unique texts kept, "tokens": total tokens}`` (ints).
    Source: part 1 (GIL: 8 threads 1.0x, 8 processes 3.1x); part 7 §五.C question 7, key point 2.
    """
    raise NotImplementedError("C7: process_file")


def amdahl_speedup(serial_fraction: float, n_workers: int, n_cores: int) -> float:
    """Why 8 processes do not give 8x: the part that stays serial (reading, dedupe, pickling
    in the parent) and the cores actually available. Amdahl's law:
    1 / (serial_fraction + (1 - serial_fraction) / min(n_workers, n_cores)).
    Source: part 7 §五.C question 7, follow-up "why do processes not reach 8x".
    """
    raise NotImplementedError("C7: amdahl_speedup")
