"""Regenerate grader/quiz/course_text.py from the course's part 7 (verbatim copies, no edits).

    python scripts/extract_course_text.py /path/to/course/000_....txt > grader/quiz/course_text.py

The quiz quotes the course's questions, answers ("答案"), C's key points ("答案要点") and follow-up
directions ("追问方向"), and the must-remember lines ("必记") of section 二 from this module.
"""

from __future__ import annotations

import re
import sys
import unicodedata


def extract(text: str) -> dict:
    out: dict = {"questions": {}, "answers": {}, "c_points": {}, "c_followups": {}, "c_good": {}, "must_remember": {}}
    sec = text[text.index("五、通关自测") : text.index("D. 掌握判据")]
    blocks = {
        "A": sec[sec.index("A. 判断与计算") : sec.index("B. 跨篇综合")],
        "B": sec[sec.index("B. 跨篇综合") : sec.index("C. 面试题")],
        "C": sec[sec.index("C. 面试题") :],
    }
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
        points = ans[ans.index("答案要点：") + len("答案要点：") : ans.index(" 追问方向：")]
        follow = ans[ans.index("追问方向：") + len("追问方向：") : ans.index(" 好答案与一般答案的区别：")]
        good = ans[ans.index("好答案与一般答案的区别：") :]
        parts = re.split(r"(?:；|^)\s*\((\d)\) ", points)
        out["c_points"][qid] = [p for p in parts[2::2]]
        out["c_followups"][qid] = follow
        out["c_good"][qid] = good
    review = text[text.index("二、逐篇回顾") : text.index("三、贯穿全系列的几条线")]
    for n, chunk in enumerate(review.split("必记：")[1:], start=1):
        body = chunk[: chunk.index("常见误解：")]
        out["must_remember"][n] = [ln.strip()[2:] for ln in body.split("\n") if ln.strip().startswith("• ")]
    start = text.index("第一篇讲")
    out["parts_sentence"] = text[start : text.index("。", start) + 1]
    return out


LINE = 120  # the project's line length (pyproject.toml), a CJK character counting two columns as in ruff
BREAK_AFTER = set(" ，；。、：）,;:)")


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _repr(value: str | int) -> str:
    """repr() in the quotes ruff format writes: double, where the text holds no quote of either kind."""
    out = repr(value)
    plain = isinstance(value, str) and "'" not in value and '"' not in value
    return f'"{out[1:-1]}"' if plain else out


def literal(value: str, indent: int, lead: str = "", tail: str = ",") -> list[str]:
    """``lead`` and ``value`` as Python source lines at ``indent`` columns: one literal if it fits,
    otherwise pieces broken after a space or punctuation, in parentheses (adjacent literals are one string)."""
    pad = " " * indent
    if _width(pad + lead + _repr(value) + tail) <= LINE:
        return [pad + lead + _repr(value) + tail]
    pieces, start, last = [], 0, None
    for i, c in enumerate(value):
        if _width(pad + "    " + _repr(value[start : i + 1])) > LINE and last is not None:
            pieces.append(value[start:last])
            start, last = last, None
        if c in BREAK_AFTER:
            last = i + 1
    pieces.append(value[start:])
    return [pad + lead + "(", *(pad + "    " + _repr(p) for p in pieces), pad + ")" + tail]


def render(data: dict) -> str:
    """The module's source: the header, then every name; each line fits in LINE columns."""
    out = [
        '"""The course\'s own words, copied verbatim from part 7 (review and self-test) by',
        'scripts/extract_course_text.py: questions and answers ("答案") of §五 A/B/C, C\'s key points',
        '("答案要点"), follow-up directions ("追问方向") and the must-remember lines ("必记") of §二.',
        'Do not edit by hand: regenerate, and the quiz\'s templates are tested against these."""',
        "",
    ]
    out += [*literal(data["parts_sentence"], 0, "PARTS_SENTENCE = ", tail=""), ""]
    for name in ("questions", "answers", "c_points", "c_followups", "c_good", "must_remember"):
        out.append(f"{name.upper()} = {{")
        for k, v in data[name].items():
            if isinstance(v, list):
                out.append(f"    {_repr(k)}: [")
                for item in v:
                    out += literal(item, 8)
                out.append("    ],")
            else:
                out += literal(v, 4, f"{_repr(k)}: ")
        out += ["}", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def main(path: str) -> None:
    sys.stdout.write(render(extract(open(path, encoding="utf-8").read())))


if __name__ == "__main__":
    main(sys.argv[1])
