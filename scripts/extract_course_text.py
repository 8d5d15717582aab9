"""Regenerate grader/quiz/course_text.py from the course's part 7 (verbatim copies, no edits).

    python scripts/extract_course_text.py /path/to/course/000_....txt > grader/quiz/course_text.py

The quiz quotes the course's questions, answers ("答案"), C's key points ("答案要点") and follow-up
directions ("追问方向"), and the must-remember lines ("必记") of section 二 from this module.
"""

from __future__ import annotations

import re
import sys


def extract(text: str) -> dict:
    out: dict = {"questions": {}, "answers": {}, "c_points": {}, "c_followups": {}, "c_good": {}, "must_remember": {}}
    sec = text[text.index("五、通关自测"):text.index("D. 掌握判据")]
    blocks = {"A": sec[sec.index("A. 判断与计算"):sec.index("B. 跨篇综合")],
              "B": sec[sec.index("B. 跨篇综合"):sec.index("C. 面试题")],
              "C": sec[sec.index("C. 面试题"):]}
    for set_id, block in blocks.items():
        lines = [ln.strip() for ln in block.split("\n")]
        i = 0
        while i < len(lines):
            m = re.match(r"^(\d+)\. (.+)$", lines[i])
            if m:
                qid = f"{set_id}{m.group(1)}"
                out["questions"][qid] = m.group(2)
                j = lines.index("答案", i)
                k = j + 1
                while not lines[k]:
                    k += 1
                out["answers"][qid] = lines[k]
                i = k
            i += 1
    for qid, ans in out["answers"].items():
        if not qid.startswith("C"):
            continue
        points = ans[ans.index("答案要点：") + len("答案要点："):ans.index(" 追问方向：")]
        follow = ans[ans.index("追问方向：") + len("追问方向："):ans.index(" 好答案与一般答案的区别：")]
        good = ans[ans.index("好答案与一般答案的区别："):]
        parts = re.split(r"(?:；|^)\s*\((\d)\) ", points)
        out["c_points"][qid] = [p for p in parts[2::2]]
        out["c_followups"][qid] = follow
        out["c_good"][qid] = good
    review = text[text.index("二、逐篇回顾"):text.index("三、贯穿全系列的几条线")]
    for n, chunk in enumerate(review.split("必记：")[1:], start=1):
        body = chunk[:chunk.index("常见误解：")]
        out["must_remember"][n] = [ln.strip()[2:] for ln in body.split("\n") if ln.strip().startswith("• ")]
    start = text.index("第一篇讲")
    out["parts_sentence"] = text[start:text.index("。", start) + 1]
    return out


def main(path: str) -> None:
    data = extract(open(path, encoding="utf-8").read())
    print('"""The course\'s own words, copied verbatim from part 7 (review and self-test) by')
    print("scripts/extract_course_text.py: questions and answers (\"答案\") of §五 A/B/C, C's key points")
    print("(\"答案要点\"), follow-up directions (\"追问方向\") and the must-remember lines (\"必记\") of §二.")
    print('Do not edit by hand: regenerate, and the quiz\'s templates are tested against these."""\n')
    print(f"PARTS_SENTENCE = {data['parts_sentence']!r}\n")
    for name in ("questions", "answers", "c_points", "c_followups", "c_good", "must_remember"):
        print(f"{name.upper()} = {{")
        for k, v in data[name].items():
            if isinstance(v, list):
                print(f"    {k!r}: [")
                for item in v:
                    print(f"        {item!r},")
                print("    ],")
            else:
                print(f"    {k!r}: {v!r},")
        print("}\n")


if __name__ == "__main__":
    main(sys.argv[1])
