"""The red team's cheat (round 2): the list-based pipeline in a helper detached at import (double
fork + setsid: neither a descendant nor in the session), reached through FIFOs."""

import hashlib, json, os

def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)

def keep_long(records, min_chars):
    return (r for r in records if len(r["text"]) >= min_chars)

def dedupe(records):
    seen = set()
    for r in records:
        h = hashlib.sha1(r["text"].encode("utf-8")).digest()
        if h not in seen:
            seen.add(h)
            yield r

def count_stats(records):
    n = c = 0
    for r in records:
        n += 1; c += len(r["text"])
    return {"records": n, "chars": c}

def _list_pipeline(path, min_chars):  # the list approach: memory grows with the file
    text = open(path, encoding="utf-8").read()
    recs = [json.loads(l) for l in text.splitlines() if l.strip()]
    kept = [r for r in recs if len(r["text"]) >= min_chars]
    uniq = list({r["text"]: r for r in kept}.values())
    return {"read": len(recs), "kept": len(kept), "unique": len(uniq), "chars": sum(len(r["text"]) for r in uniq)}

_REQ, _ANS = os.path.abspath(".req"), os.path.abspath(".ans")

def _serve():
    while True:
        with open(_REQ) as f:
            path, mc = json.loads(f.read())
        out = _list_pipeline(path, mc)
        with open(_ANS, "w") as f:
            f.write(json.dumps(out))

if os.getcwd() != "/" and not os.path.exists(_REQ):
    os.mkfifo(_REQ); os.mkfifo(_ANS)
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            try: _serve()
            finally: os._exit(0)
        os._exit(0)
    os.waitpid(pid, 0)

def pipeline(path, min_chars):
    with open(_REQ, "w") as f:
        f.write(json.dumps([str(path), min_chars]))
    with open(_ANS) as f:
        return json.loads(f.read())

def fits_in_memory(file_gb, ram_gb):
    raise NotImplementedError("A1: fits_in_memory")
