"""C7 — 10 GB JSONL clean / dedupe / tokenize (part 7 §五.C q7; parts 1 and 5)."""

import hashlib
import json
import multiprocessing


def clean(text):
    return " ".join(text.split())


def unique_texts(path, min_chars):
    seen = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = clean(json.loads(line)["text"])
            if len(text) < min_chars:
                continue
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            if digest in seen:
                continue
            seen.add(digest)
            yield text


def tokenize(text):
    return list(text.encode("utf-8"))


CHUNKSIZE = 64  # texts per pickle round-trip to a worker


def process_file(path, min_chars, n_workers):
    documents = tokens = 0
    with multiprocessing.Pool(n_workers) as pool:
        for ids in pool.imap(tokenize, unique_texts(path, min_chars), chunksize=CHUNKSIZE):
            documents += 1
            tokens += len(ids)
    return {"documents": documents, "tokens": tokens}


def why_not_linear():
    return ["serialization", "startup"]  # part 1: 「差在进程启动与 pickle」
