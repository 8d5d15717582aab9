"""Nothing parses a shown text: a translated message is words, never an expression, a query, a
pattern or data (C6's pandas query was once a catalog entry: in Chinese it did not parse)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Calls that read their argument as code or data rather than words.
PARSERS = {"query", "eval", "exec", "literal_eval", "parse", "loads", "compile", "match", "fullmatch", "search"}


def _translated(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "N_")


def parsed_texts(source: str) -> list[int]:
    """Lines where a parsing call is handed a catalog message."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in PARSERS and any(_translated(a) for a in [*node.args, *(k.value for k in node.keywords)]):
            lines.append(node.lineno)
    return lines


def test_the_guard_sees_a_parsed_message():
    assert parsed_texts('m.query(_("~a and b"))\n') == [1]
    assert parsed_texts('m.query("~a and b")\n_("~a and b")\n') == []


def test_no_grader_file_parses_a_message():
    found = {
        str(p.relative_to(ROOT)): lines
        for p in sorted((ROOT / "grader").rglob("*.py"))
        if (lines := parsed_texts(p.read_text()))
    }
    assert not found, f"a catalog message handed to a parser (say it as code, untranslated): {found}"
