"""Opens the JSONL file without ``encoding=``: open() then decodes with the machine's locale
encoding. On a UTF-8 Linux box the counts are right; on a Chinese Windows machine (GBK) the
first Chinese text crashes it (or is misread), and so it does under LC_ALL=C (ASCII).

K-Quant/HiDy issue #3, "UnicodeDecodeError: 'gbk' codec can't decode byte 0xab in position 17:
illegal multibyte sequence" (``for line in file:`` on a file opened without an encoding, fixed by
``open(filename, 'r', encoding='utf-8')``: "The default encoding method of Python's open method
depends on the platform"). The stub: "files are UTF-8".
"""

import json

import solutions.a1_streaming as reference
from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("pipeline_counts",)
MISCONCEPTION = (
    "open the file without encoding=: open() decodes with the locale's encoding (GBK on Chinese Windows), not UTF-8"
)


def read_jsonl(path):
    with open(path) as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


reference.read_jsonl = read_jsonl  # the reference pipeline calls it by its module's name
