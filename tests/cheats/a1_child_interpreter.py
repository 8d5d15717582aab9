"""The red team's cheat: the list-based pipeline run in a child interpreter, so the learner's own
process (whose peak the check read) never holds the records."""

import json as _json
import subprocess as _subprocess
import sys as _sys

_CHILD = r"""
import hashlib, json, sys
records = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
kept = [r for r in records if len(r["text"]) >= int(sys.argv[2])]
seen, unique = set(), []
for r in kept:
    h = hashlib.sha256(r["text"].encode()).hexdigest()
    if h not in seen:
        seen.add(h)
        unique.append(r)
print(json.dumps({"read": len(records), "kept": len(kept), "unique": len(unique),
                  "chars": sum(len(r["text"]) for r in unique)}))
"""


def pipeline(path, min_chars):
    out = _subprocess.run([_sys.executable, "-c", _CHILD, path, str(min_chars)], capture_output=True,
                          text=True, check=True)
    return _json.loads(out.stdout)
