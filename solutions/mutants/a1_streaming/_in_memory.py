"""Shared by the mutants that load every record into a list (not a mutant: the leading underscore
keeps it out of the harness).

``pipeline`` on a list of all the parsed records, with a hook right after they are loaded, so a
mutant adds only its own trick (hiding the list's peak from one measurement or another).
"""

import json


def list_pipeline(path, min_chars, after_load=lambda records: None):
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    after_load(records)
    kept = [r for r in records if len(r["text"]) >= min_chars]
    seen, chars = set(), 0
    for r in kept:
        if r["text"] not in seen:
            seen.add(r["text"])
            chars += len(r["text"])
    return {"read": len(records), "kept": len(kept), "unique": len(seen), "chars": chars}
