"""``grade-report.html``: one self-contained page (charts inline as SVG, one small script).

matplotlib draws the charts: it is already a course tool (part 2) and renders headless. The
report's charts are SVG with their words kept as text (``svg.fonttype: none``): the reader's
browser draws them with its own fonts, as it draws the rest of the page, so a chart speaks the
report's language wherever the page can, and the one notice below covers both. The script
(:data:`GLYPH_CHECK`) only tells the reader when Chinese glyphs cannot be drawn here.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import json
import warnings
from collections.abc import Collection
from html import escape
from pathlib import Path

from grader.course import catalog
from grader.course.levels import SOURCE_NAMES, Summary, level_text
from grader.engine import cache
from grader.engine.results import ExerciseResult
from grader.i18n import N_, _, current
from grader.isolation import files
from grader.reports.terminal import (
    COLUMNS,
    NEAR_COPIES,
    OPAQUE,
    _exercise_line,
    all_passed,
    covers,
    earlier_failures,
    feedback,
    met,
    near_copy_line,
    opaque_line,
    outside,
    pass_line_rule,
    quiz_scores,
    sandbox_line,
    scores,
    set_heading,
    when,
)

# Chinese text needs a CJK font: Linux's (Noto, WenQuanYi), macOS's and Windows' own, then the
# browser's fallback. Latin fonts first: system-ui alone may draw no Chinese, and a font without a
# glyph passes that character on down the list.
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "WenQuanYi Micro Hei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Microsoft YaHei",
)
FONT_STACK = ",".join(["system-ui", "-apple-system", '"Segoe UI"', *(f'"{f}"' for f in CJK_FONTS), "sans-serif"])
CJK_FILES = ("NotoSansCJK", "SourceHanSans", "wqy-microhei")  # their files, by name
HTML_LANG = {"zh": "zh-CN", "en": "en"}
# Shown by GLYPH_CHECK only, in both languages: the reader who needs it cannot read the Chinese half.
NOTICE_ZH = (
    "本机缺少中文字体，页面里的中文显示为方框。请安装一种中文字体：Debian/Ubuntu 用 "
    "sudo apt install fonts-noto-cjk，Fedora 用 sudo dnf install google-noto-sans-cjk-fonts，"
    "Arch 用 sudo pacman -S noto-fonts-cjk；macOS 与 Windows 自带，然后重新打开本页。"
)
NOTICE_EN = (
    "This machine has no Chinese font: the Chinese in this page shows as boxes. Install one: "
    "Debian/Ubuntu: sudo apt install fonts-noto-cjk; Fedora: sudo dnf install google-noto-sans-cjk-fonts; "
    "Arch: sudo pacman -S noto-fonts-cjk (macOS and Windows ship one), then open this page again."
)
# A character is drawn with the page's fonts and compared with one no font has (U+10FFFD, a
# private-use code point: every browser draws its missing-glyph box for it). The same pixels: no
# font here has the Chinese glyph. document.fonts.check() cannot tell: it answers for web fonts.
GLYPH_CHECK = """
(function(){var c=document.createElement('canvas');c.width=c.height=48;var x=c.getContext('2d');if(!x)return;
var font='32px '+getComputedStyle(document.body).fontFamily;
function ink(ch){x.clearRect(0,0,48,48);x.font=font;x.fillText(ch,4,38);return x.getImageData(0,0,48,48).data.join();}
var box=ink(String.fromCodePoint(0x10FFFD));
if(['中','文','字'].some(function(ch){return ink(ch)===box;}))document.getElementById('no-cjk').hidden=false;})();
"""
CSS = """
body{font-family:FONT_STACK;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
#no-cjk{border:2px solid #b45309;background:#fffbeb;padding:.6em .9em;border-radius:6px}
figure.chart{margin:0} figure.chart svg{max-width:100%;height:auto;overflow:visible}
figure.chart svg text{font-family:FONT_STACK!important}
h1{margin-bottom:.2em} .level{font-size:1.6em;padding:.4em .8em;border-radius:8px;display:inline-block}
.none{background:#eee}.read{background:#dbeafe}.mastered{background:#dcfce7}.can-teach{background:#fde68a}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}
.ok{color:#15803d}.bad{color:#b91c1c}.na{color:#888}
pre{background:#f6f6f6;padding:.6em;white-space:pre-wrap;border-radius:4px} img{max-width:100%}
.kp{border-left:4px solid #b91c1c;padding-left:.8em;margin:1em 0}
""".replace("FONT_STACK", FONT_STACK)


CRITERIA_COLUMNS = (N_("level"), N_("source"), N_("criterion"), N_("met"))


def _spec_key(spec: dict) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()[:24]


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return f'<img alt="chart" src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}">'


def _svg(fig) -> str:
    """``fig`` as inline SVG, its words as text in the page's fonts (see the module's docstring)."""
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    with plt.rc_context({"svg.fonttype": "none", "font.sans-serif": _chart_fonts()}), warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)  # the browser has it
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.index("<svg") :]  # inline: without the XML declaration and doctype


def _parts_chart(results: dict[str, ExerciseResult]) -> str:
    return f"<figure class='chart'>{_svg(_parts_figure(results))}</figure>"


def _parts_figure(results: dict[str, ExerciseResult]):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parts = sorted(catalog.PART_TITLES)
    passed = {p: 0 for p in parts}
    failed = {p: 0 for p in parts}
    missing = {p: 0 for p in parts}
    for ex in catalog.CATALOG:
        res = results.get(ex.id)
        if res is None:
            continue  # not asked for (the report of a run without the learner's record)
        if res.status == "not_available":
            missing[ex.part] += len(ex.key_points)
            continue
        for k in res.key_points:
            if k.status != "not_verifiable":
                (passed if k.passed else failed)[ex.part] += 1
    say = _  # the browser draws the words (_svg): GLYPH_CHECK tells a reader without a Chinese font
    fig, ax = plt.subplots(figsize=(8, 3.4), layout="constrained")
    labels = [f"{p}. {say(catalog.PART_TITLES[p])}" for p in parts]
    bottom = [0] * len(parts)
    for data, color, name in (
        (passed, "#16a34a", say(N_("passed"))),
        (failed, "#dc2626", say(N_("failed"))),
        (missing, "#d4d4d4", say(N_("not available yet"))),
    ):
        values = [data[p] for p in parts]
        ax.barh(labels, values, left=bottom, color=color, label=name)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel(say(N_("key points")))
    ax.set_title(say(N_("Key points per course part")))
    ax.margins(x=0.05)
    # Below the axes, inside the figure: beside them it ran off the page's right edge.
    fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    return fig


@functools.cache
def _chart_fonts() -> list[str]:
    """The fonts matplotlib measures a chart's words with: the CJK fonts it knows first (a Chinese
    label then takes its real width), DejaVu Sans after; the browser draws them (_svg). A CJK font
    installed after matplotlib built its font cache is not in it: looked for once, added here."""
    from matplotlib import font_manager

    def known() -> list[str]:
        names = {f.name for f in font_manager.fontManager.ttflist}
        return [f for f in CJK_FONTS if f in names]

    if not known():
        for path in font_manager.findSystemFonts():
            if any(k in Path(path).name for k in CJK_FILES):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    pass  # a font file matplotlib cannot read: measured with DejaVu Sans
    return [*known(), "DejaVu Sans"]


def _figure(spec: dict) -> str:
    """An attached chart as an <img>; the same spec (a re-grade reusing cached results) is drawn
    once: drawing is most of the time of a one-exercise re-grade."""
    path = cache.CACHE_DIR / "figures-svg" / f"{_spec_key(spec)}.html"
    try:
        return files.read_regular(path, 16 << 20).decode()
    except (OSError, ValueError):
        pass
    html = _draw(spec)
    try:
        files.own_folder(path.parent)
        files.replace_file(path, html.encode())
    except OSError:
        pass  # a read-only project: draw again next time
    return html


def _draw(spec: dict) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3))
    if spec.get("kind") == "bars":
        labels = spec.get("labels", [])
        series = spec.get("series", {})
        width = 0.8 / max(1, len(series))
        for i, (name, values) in enumerate(series.items()):
            ax.bar([j + i * width for j in range(len(values))], values, width, label=name)
        ax.set_xticks([j + width * (len(series) - 1) / 2 for j in range(len(labels))], labels, rotation=15)
    else:
        for name, points in spec.get("series", {}).items():
            xs, ys = zip(*points, strict=True) if points else ((), ())
            ax.plot(xs, ys, label=name)
        if spec.get("log_x"):
            ax.set_xscale("log")
    ax.set_title(spec.get("title", ""))
    ax.set_xlabel(spec.get("x_label", ""))
    ax.set_ylabel(spec.get("y_label", ""))
    ax.legend(fontsize=8)
    return _svg(fig)


def render(
    results: dict[str, ExerciseResult], summary: Summary, target: str = "", only: Collection[str] | None = None
) -> str:
    """The report page; ``only``: the exercises ``--only`` chose (see :func:`terminal.print_report`)."""
    # Every message is looked up outside the f-strings: Babel (Python 3.11) extracts no call inside one.
    title = escape(_("Grade report"))
    closed = _(", closed book") if summary.quiz else ""
    level = _("Level: {level}", level="\0").replace("\0", f"<b>{escape(level_text(summary.level))}</b>")
    pass_line = escape(_("Pass line ({rule}{closed}):", rule=pass_line_rule(summary), closed=closed))
    out = [
        f"<!doctype html><html lang='{HTML_LANG[current()]}'><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>{CSS}</style></head><body>",
        f"<p id='no-cjk' hidden lang='zh-CN'>{escape(NOTICE_ZH)}<br><span lang='en'>{escape(NOTICE_EN)}</span></p>",
        f"<h1>{title}</h1><p>{escape(target)}</p>",
        f"<p class='sandbox'>{escape(sandbox_line(results))}</p>",
        f"<div class='level {escape(summary.level)}'>{level}</div>",
        f"<p>{pass_line} <b class='{'ok' if summary.pass_line else 'bad'}'>{escape(met(summary.pass_line))}</b></p>",
    ]
    if summary.quiz is not None:
        quiz = escape(_("Quiz (closed book: read, answering): {scores}", scores=quiz_scores(summary)))
        code = escape(
            _("Code (P, X and the code exercises): {scores}; level from the code alone:", scores=scores(summary))
        )
        out.append(f"<p>{quiz}</p><p>{code} <b>{escape(_(summary.code_level))}</b></p>")
    else:
        out.append(f"<p>{escape(scores(summary))}</p>")
    if summary.next_level_needs:
        needs = _("For the next level: {needs}", needs="; ".join(summary.next_level_needs_text()))
        out.append(f"<p>{escape(needs)}</p>")
    if only:
        out.append(f"<p class='covers'>{escape(covers(only))}</p>")
    if summary.criteria:
        head = "".join(f"<th>{escape(_(h))}</th>" for h in CRITERIA_COLUMNS)
        every = escape(_("Every criterion of every level, and where it comes from"))
        out.append(f"<details><summary>{every}</summary><table><tr>{head}</tr>")
        yes, no = escape(_("yes")), escape(_("no"))
        for c in summary.criteria:
            out.append(
                f"<tr><td>{escape(level_text(c.level))}</td><td>{escape(_(SOURCE_NAMES[c.source]))}</td><td>{escape(c.shown())}</td>"
                f"<td class='{'ok' if c.met else 'bad'}'>{yes if c.met else no}</td></tr>"
            )
        out.append("</table></details>")
    out.append(_parts_chart(results))
    for set_id in catalog.SETS:
        exs = [ex for ex in catalog.CATALOG if ex.set == set_id and ex.id in results]
        if not exs:
            continue
        head = "".join(f"<th>{escape(_(col))}</th>" for col in COLUMNS)
        out.append(f"<h2>{escape(set_heading(set_id, *summary.sets[set_id]))}</h2><table><tr>{head}</tr>")
        for ex in exs:
            res = results[ex.id]
            score, text = _exercise_line(res)
            cls = "ok" if all_passed(res) else "na" if score == "-" else "bad"
            out.append(
                f"<tr><td>{ex.id}</td><td>{escape(_(ex.title))}</td><td>{ex.part}</td><td>{score}</td>"
                f"<td class='{cls}'>{escape(text)}</td><td>{when(res)}</td></tr>"
            )
        out.append("</table>")
    apart = set(outside(results, only))
    failed = [
        (ex, k)
        for ex in catalog.CATALOG
        for k in (results[ex.id].key_points if ex.id in results and ex.id not in apart else [])
        if not k.passed and k.status != "not_verifiable"
    ]
    if failed:
        out.append("<h2>" + escape(_("What to fix and re-read")) + "</h2>")
        for ex, k in failed:
            out.append(
                f"<div class='kp'><b>{ex.id} · {escape(k.key_point)}</b>"  # the feedback's first line is its status
                f"<pre>{escape(feedback(ex, k))}</pre></div>"
            )
    if earlier_failures(results, only):
        out.append(f"<p class='earlier'>{escape(earlier_failures(results, only))}</p>")
    copies = [near_copy_line(results[ex.id]) for ex in catalog.CATALOG if ex.id in results and results[ex.id].near_copy]
    if copies:
        out.append(f"<p>{escape(_(NEAR_COPIES))}</p><ul>" + "".join(f"<li>{escape(c)}</li>" for c in copies) + "</ul>")
    hidden = [opaque_line(results[ex.id]) for ex in catalog.CATALOG if ex.id in results and results[ex.id].opaque]
    if hidden:
        out.append(f"<p>{escape(_(OPAQUE))}</p><ul>" + "".join(f"<li>{escape(c)}</li>" for c in hidden) + "</ul>")
    measured = [
        (ex, k) for ex in catalog.CATALOG for k in (results[ex.id].key_points if ex.id in results else []) if k.figures
    ]
    if measured:
        # One chart per measurement: hypothesis re-runs a check's body per example, and each run
        # attaches its chart again; a chart another key point already shows is linked, not repeated.
        out.append("<h2>" + escape(_("Measurements")) + "</h2>")
        shown: set[str] = set()
        chart, above = _("chart"), escape(_("(above)"))
        for ex, k in measured:
            out.append(f"<h3>{ex.id} · {escape(k.key_point)}</h3>")
            for key, spec in {_spec_key(f): f for f in k.figures}.items():
                if key in shown:
                    out.append(f"<p><a href='#chart-{key}'>{escape(spec.get('title') or chart)}</a> {above}</p>")
                else:
                    shown.add(key)
                    out.append(f"<figure class='chart' id='chart-{key}'>{_figure(spec)}</figure>")
    out.append(f"<script>{GLYPH_CHECK}</script></body></html>")
    return "\n".join(out)
