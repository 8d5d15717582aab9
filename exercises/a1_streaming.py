"""A1 — streaming a JSONL corpus (part 7, §五.A question 1; part 1, generators).

A 10 GB JSONL corpus on a 16 GB machine: read it into a list and the peak is about 5x the file
(the course measured 19.4 MB -> 102.9 MB, 5.3x); chain generators read -> filter -> dedupe ->
count and only one record plus the dedupe hash set is in memory at a time, whatever the file's
size. Use the standard library only (json, hashlib); ``read_jsonl``, ``keep_long`` and ``dedupe``
are generators, ``count_stats`` consumes the stream.

The records: one JSON object per line, e.g. ``{"id": 7, "text": "训练 the loss", "lang": "en",
"score": 0.52}``; files are UTF-8; blank lines (only whitespace) are skipped.
"""

from collections.abc import Iterable, Iterator


def read_jsonl(path: str) -> Iterator[dict]:
    """Yield the records of the JSONL file at ``path`` one at a time (``json.loads`` per line).

    Open the file with ``encoding="utf-8"`` and iterate over it line by line; skip blank lines.
    Never read the whole file (no ``read()``, ``readlines()`` or ``list(f)``).

    Source: part 1, must-remember "a generator keeps peak memory independent of file size".
    """
    raise NotImplementedError("A1: read_jsonl")


def keep_long(records: Iterable[dict], min_chars: int) -> Iterator[dict]:
    """Yield the records whose ``text`` has at least ``min_chars`` characters (``len`` of the str,
    not bytes: "梯度" is 2 characters).

    Source: part 1, the read -> filter -> dedupe -> count pipeline.
    """
    raise NotImplementedError("A1: keep_long")


def dedupe(records: Iterable[dict]) -> Iterator[dict]:
    """Yield each record whose ``text`` was not seen before (exact dedupe on ``text``; the first
    occurrence wins, other fields are ignored).

    Keep only a set of hashes of the texts seen (e.g. ``hashlib.sha1(text.encode()).digest()``),
    never the records themselves: memory then grows with the number of DISTINCT texts only.

    Source: part 1, "only one record plus the dedupe hash set is in memory"; part 7, §五.C
    ("exact dedupe is a content-hash set").
    """
    raise NotImplementedError("A1: dedupe")


def count_stats(records: Iterable[dict]) -> dict:
    """Consume ``records`` and return ``{"records": n, "chars": total len(text)}`` (ints).

    Source: part 1, the read -> filter -> dedupe -> count pipeline.
    """
    raise NotImplementedError("A1: count_stats")


def pipeline(path: str, min_chars: int) -> dict:
    """Run read -> keep_long -> dedupe -> count over the file at ``path`` in one streaming pass.

    Returns:
        A dict of ints: ``{"read": records read, "kept": records after keep_long,
        "unique": records after dedupe, "chars": total characters of the unique texts}``.
        Count "read" and "kept" while streaming (e.g. a small counting generator between
        stages); do not read the file twice.

    The check measures memory from outside your process: it runs ``pipeline`` in a fresh
    process on generated files of 1 MB and 16 MB (with the same distinct texts) and reads that
    process's peak resident memory and peak address space from /proc: they may not grow with
    the file (a few MB above an idle process at most). It also runs it in a process whose
    address-space limit (RLIMIT_AS, set before your module is imported) is an idle process's
    size plus about 1/8 of what the list approach needs (less than the file itself): holding
    the lines or records in a list ends in MemoryError there. Import only the standard library.

    Source: part 1, must-remember "generators: peak 11.5 MB whatever the file size"; part 7,
    §五.A question 1.
    """
    raise NotImplementedError("A1: pipeline")


def fits_in_memory(file_gb: float, ram_gb: float) -> bool:
    """Does ``json.loads``-ing every line of a ``file_gb`` GB JSONL file into a list fit in
    ``ram_gb`` GB of RAM?

    The list approach peaks at several times the file size: every record becomes a dict of
    Python objects (the course measured 5.3x: 19.4 MB -> 102.9 MB; "count 5x"). Return ``True``
    when that peak is at most ``ram_gb``. The check measures the factor for real on its records
    (``tracemalloc`` around ``[json.loads(l) for l in f]``) and asks only cases that are clear
    with that measured factor, plus the course's: 8 GB on 32 GB -> False (about 40 GB).

    Source: part 1, must-remember "19.4 MB as a list peaks at 102.9 MB (5.3x): 10 GB needs
    50 GB"; part 7, §五.A question 1.
    """
    raise NotImplementedError("A1: fits_in_memory")
