r"""The course's inline LaTeX (``\(\ln V\)``, ``\(10^{-6}\)``) as plain text, for every place that
shows the course's words outside a math renderer: the terminal and HTML reports' ``course:`` line,
grade-report.json and the quiz. The course's words are kept; only the markup is rendered."""

from __future__ import annotations

import re

_SUPERSCRIPT = str.maketrans("0123456789+-T", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵀ")
_TEX = [
    (r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"\1/\2"),
    (r"\\sqrt\{([^{}]*)\}", r"√(\1)"),
    (r"\\(?:text|mathrm|operatorname)\{([^{}]*)\}", r"\1"),
    (r"\\hat\s*([a-zA-Z])", "\\1\u0302"),
    (r"\^\{([-+0-9]+)\}|\^([0-9T])\b", lambda m: (m.group(1) or m.group(2)).translate(_SUPERSCRIPT)),
    (r"\^\{([^{}]*)\}", r"^\1"),
    (r"_\{([^{}]*)\}", r"_\1"),
    (r"\\times", "×"),
    (r"\\approx", "≈"),
    (r"\\cdot", "·"),
    (r"\\leq?", "≤"),
    (r"\\geq?", "≥"),
    (r"\\to\b", "→"),
    (r"\\pm", "±"),
    (r"\\alpha", "α"),
    (r"\\ln\b", "ln"),
    (r"\\log\b", "log"),
    (r"\\[ ,;]", " "),
    (r"\\%", "%"),
]


def plain(text: str) -> str:
    r"""``text`` with each inline formula ``\( ... \)`` as plain text (``\(16 \times 2\)`` -> 16 × 2)."""

    def math(m: re.Match) -> str:
        body = m.group(1)
        for pat, rep in _TEX:
            body = re.sub(pat, rep, body)
        return body.strip()

    return re.sub(r"\\\((.+?)\\\)", math, text)
