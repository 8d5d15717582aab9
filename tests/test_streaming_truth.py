"""A1's generated JSONL files (grader/checks/truth/streaming.py, the check's and the quiz's ground
truth): byte for byte the files of the per-record ``json.dumps`` version (the digests below were
taken with it), so the same seeds give the same files and no verdict moved; and every record is the
line ``json.dumps(record, ensure_ascii=False)`` writes."""

from __future__ import annotations

import hashlib
import json

from grader.checks.truth import streaming

# (how the file is made) -> sha256 of the file, from the version that called json.dumps per record
DIGESTS = {
    ("mb", 1, 12345): "a5e6db96ce0900760801d9287f39a2becfe5c7c91c3abbc38d9e6aa6588b9930",
    ("lines", 5000, 40, 9, 0.3): "d6a7066b31a2d25899e37ed047a08b5c95d982c11cb402b8dd0ec394a4f28f27",
}


def test_the_generated_files_are_those_of_before(tmp_path):
    path = tmp_path / "f.jsonl"
    for how, digest in DIGESTS.items():
        if how[0] == "mb":
            streaming.generate_mb(path, how[1], seed=how[2])
        else:
            streaming.generate(path, how[1], unique=how[2], seed=how[3], blank_rate=how[4])
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, how


def test_each_record_is_written_as_json_dumps_writes_it(tmp_path):
    path = tmp_path / "f.jsonl"
    streaming.generate(path, 3000, unique=60, seed=4, blank_rate=0.2)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    records = [line for line in lines if line.strip()]
    assert len(records) == 3000 and len(lines) > 3000  # the blank lines drawn too
    for i, line in enumerate(records):
        rec = json.loads(line)
        assert rec["id"] == i and line == json.dumps(rec, ensure_ascii=False) + "\n", line
