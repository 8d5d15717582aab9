"""Names matched by meaning, not by spelling: the parts of the training state and the items of a
run record.

The stubs do not spell these out (which parts and which items there are is what the learner
recalls: part 4's bytes per trainable parameter, part 6's minimal run record), so the checks
accept a name in the course's words, Chinese or English, or a common synonym, and map it to the
grader's own key: ``"fp32 主权重"``, ``"fp32 master copy"`` and ``"master"`` are the same part,
``"git_sha"``, ``"commit"`` and ``"代码版本"`` the same item. The vocabulary below is collected from
the course text (part 4's "bf16 权重 / bf16 梯度 / fp32 主权重 / 一阶矩与二阶矩", part 6's
"run id · commit · 配置文件 · 数据版本 · seed · 环境 · 指标"; tests/test_meaning.py reads those
lines back from the course); the course's 哈希 is its hash (grader/course/same_words.py). When a
name holds phrases of two items the most specific one wins ("first moment of the gradient" is a
moment, "config hash" the config): the longest phrase, a
weak word ("hash", "version") counting half, then the order of the table. A failure says how
many items are missing or which key is not understood, never which items were expected (that is
the fact recalled; the reveal of grader/engine/attempts.py shows the course's line to re-read).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable

from grader.checks.support.checking import as_str, fail
from grader.course import same_words
from grader.i18n import _, either, show

STATE_PARTS = ("weights", "grads", "master", "adam_m", "adam_v")  # per trainable parameter
FROZEN = "frozen_weights"
# A name the course gives two parts at once: part 4's "AdamW 两个矩 4 + 4" is both moments, m and v.
# A check that takes parts reads such an entry as its members, its value as theirs together.
MOMENTS = "adam_moments"
GROUPS: dict[str, tuple[str, ...]] = {MOMENTS: ("adam_m", "adam_v")}
RECORD_ITEMS = ("run_id", "commit", "config", "data_version", "seed", "environment", "metrics")
# What a run also knows when it ends, and a minimal record leaves out (none of them means an item).
OTHER_RUN_FACTS = ("host", "user", "started_at", "output_dir", "notes")

# Each item's phrases, in the course's words (Chinese and English) and common synonyms. The order
# of the items breaks ties between phrases equally specific: a moment "of the gradient" is a
# moment, so the moments come before the gradients; the frozen base before its weights.
STATE_VOCABULARY: dict[str, tuple[str, ...]] = {
    FROZEN: (
        "frozen",
        "base",
        "base model",
        "frozen weights",
        "frozen base",
        "base weights",
        "冻结",
        "基座",
        "冻结基座",
        "冻结权重",
        "基座权重",
        "冻结参数",
    ),
    "master": (
        "master",
        "master weights",
        "master copy",
        "master params",
        "fp32 weights",
        "fp32 weight",
        "fp32 params",
        "fp32 parameters",
        "fp32 copy",
        "fp32 param",
        "主权重",
        "fp32 权重",
        "fp32 参数",
        "主副本",
        "权重副本",
        "fp32 副本",
        "主参数",
    ),
    MOMENTS: (
        "moments",
        "two moments",
        "both moments",
        "adam moments",
        "adamw moments",
        "optimizer moments",
        "adam state",
        "adam states",
        "adamw state",
        "adamw states",
        "m and v",
        "m v",
        "exp avg and exp avg sq",
        "两个矩",
        "两矩",
        "两个动量",
        "一二阶矩",
    ),
    "adam_v": (
        "v",
        "nu",
        "second",
        "second moment",
        "2nd moment",
        "moment 2",
        "moment2",
        "m2",
        "adam v",
        "exp avg sq",
        "variance",
        "sq",
        "squared",
        "squared grad",
        "squared gradient",
        "二阶矩",
        "二阶动量",
        "二阶",
        "方差",
        "梯度平方",
        "平方梯度",
    ),
    "adam_m": (
        "m",
        "mu",
        "first",
        "first moment",
        "1st moment",
        "moment 1",
        "moment1",
        "m1",
        "adam m",
        "exp avg",
        "momentum",
        "mean",
        "一阶矩",
        "一阶动量",
        "一阶",
        "动量",
        "均值",
    ),
    "grads": ("grad", "grads", "gradient", "gradients", "bf16 grads", "bf16 gradients", "梯度", "bf16 梯度"),
    "weights": (
        "weights",
        "weight",
        "params",
        "parameters",
        "param",
        "parameter",
        "model",
        "model weights",
        "bf16 weights",
        "bf16 params",
        "权重",
        "参数",
        "模型权重",
        "bf16 权重",
        "模型参数",
    ),
}
RECORD_VOCABULARY: dict[str, tuple[str, ...]] = {
    "data_version": (
        "data",
        "dataset",
        "datasets",
        "corpus",
        "data version",
        "dataset version",
        "data hash",
        "dataset revision",
        "数据",
        "数据版本",
        "数据集",
        "语料",
        "数据集版本",
    ),
    "seed": ("seed", "seeds", "random seed", "rng seed", "种子", "随机种子", "随机数种子"),
    "run_id": (
        "runid",
        "run id",
        "run name",
        "run uuid",
        "run identifier",
        "experiment id",
        "experiment name",
        "exp id",
        "实验 id",
        "运行 id",
        "run 编号",
        "实验编号",
        "运行编号",
        "实验名",
        "实验名称",
        "运行名",
        "运行名称",
        "实验标识",
        "运行标识",
    ),
    "config": (
        "config",
        "configuration",
        "configs",
        "config file",
        "hyperparameters",
        "hparams",
        "cfg",
        "args",
        "配置",
        "配置文件",
        "超参数",
        "超参",
        "参数配置",
    ),
    "commit": (
        "commit",
        "git",
        "sha",
        "hash",
        "revision",
        "git sha",
        "commit hash",
        "code version",
        "code revision",
        "提交",
        "代码版本",
        "git 提交",
        "代码提交",
    ),
    "environment": (
        "environment",
        "env",
        "pip",
        "freeze",
        "pip freeze",
        "requirements",
        "packages",
        "package versions",
        "versions",
        "conda",
        "docker",
        "环境",
        "运行环境",
        "软件环境",
        "依赖",
        "依赖版本",
        "环境版本",
        "库版本",
        "包版本",
        "软件版本",
    ),
    "metrics": (
        "metrics",
        "metric",
        "results",
        "result",
        "scores",
        "score",
        "evaluation",
        "eval",
        "指标",
        "评测",
        "评测指标",
        "评估",
        "结果",
        "评测结果",
        "评估指标",
        "度量",
        "度量指标",
        "分数",
        "得分",
        "成绩",
    ),
}
# Each part and item in the course's words (part 4's "bf16 权重 / bf16 梯度 / fp32 主权重 / AdamW 的一阶矩与
# 二阶矩", part 6's "run id · commit · 配置文件 · 数据版本 · seed · 环境 · 指标"): what a revealed expected list
# shows, in the reader's language, never the grader's keys.
COURSE_NAMES: dict[str, dict] = {
    FROZEN: either(en="frozen bf16 weights", zh="冻结的 bf16 权重"),
    "weights": either(en="bf16 weights", zh="bf16 权重"),
    "grads": either(en="bf16 gradients", zh="bf16 梯度"),
    "master": either(en="fp32 master weights", zh="fp32 主权重"),
    "adam_m": either(en="AdamW first moment", zh="AdamW 一阶矩"),
    "adam_v": either(en="AdamW second moment", zh="AdamW 二阶矩"),
    MOMENTS: either(en="AdamW's two moments", zh="AdamW 两个矩"),
    "run_id": either(en="run id", zh="run id"),
    "commit": either(en="commit", zh="commit"),
    "config": either(en="config file", zh="配置文件"),
    "data_version": either(en="data version", zh="数据版本"),
    "seed": either(en="seed", zh="seed"),
    "environment": either(en="environment", zh="环境"),
    "metrics": either(en="metrics", zh="指标"),
}


def course_names(items) -> list[str]:
    """``items`` (the grader's keys, "adam_m" or "data version") in the course's words, in the reader's
    language: the expected list a failure shows."""
    return [show(COURSE_NAMES[item.replace(" ", "_")]) for item in items]


# Qualifier words decide among the weight-like parts whatever other words a name shares with
# another part: "冻结的 bf16 权重" and "frozen bf16 weights" are the frozen base, "master bf16
# weights" the master copy, "trainable base weights" a trainable parameter's weights.
WEIGHT_LIKE = frozenset({FROZEN, "master", "weights"})
QUALIFIERS: dict[str, tuple[str, ...]] = {
    "master": ("master", "主权重", "主副本", "主参数"),
    "weights": ("trainable", "可训练"),
    FROZEN: ("frozen", "base", "冻结", "基座"),
}
# Words that only hint at an item: a hash or a version of what? ("config hash" is the config).
WEAK = frozenset({"hash", "sha", "revision", "versions", "version", "first", "second"})

_CJK = "\u3400-\u4dbf\u4e00-\u9fff"


def words(text: str) -> str:
    """Lower case; runs of letters and digits, and runs of Chinese characters, each a word, one
    space between: 'Git-SHA (commit)' -> 'git sha commit', 'fp32主权重' -> 'fp32 主权重';
    the course's Chinese for an English term as that term: '数据哈希' -> '数据 hash'."""
    text = same_words.fold(text.lower().replace("_", " "))  # 哈希 is the course's hash
    return " ".join(re.findall(rf"[0-9a-z]+|[{_CJK}]+", text))


def _weight(token: str) -> float:
    if re.fullmatch(rf"[{_CJK}]+", token):
        return float(len(token))  # a Chinese word: one per character ("一阶矩" beats "梯度")
    return 0.5 if token in WEAK else 1.0


@functools.cache
def _patterns(vocabulary: tuple) -> tuple:
    """(compiled phrase, item, specificity, table order) for every phrase of a vocabulary."""
    out = []
    for order, (item, phrases) in enumerate(vocabulary):
        for phrase in phrases:
            tokens = words(phrase).split()
            # latin words match whole words; Chinese ones anywhere in a run of Chinese characters
            parts = [
                re.escape(t) if re.fullmatch(rf"[{_CJK}]+", t) else rf"(?<![0-9a-z]){re.escape(t)}(?![0-9a-z])"
                for t in tokens
            ]
            out.append((re.compile(r"\s*".join(parts)), item, sum(_weight(t) for t in tokens), order))
    return tuple(out)


def _best(name: str, vocabulary: dict, qualifiers: dict | None = None, among: frozenset = frozenset()) -> str | None:
    """The item whose phrase in ``name`` is the most specific (None: no phrase of any item); when
    that item is one of ``among`` and ``name`` holds a word of ``qualifiers``, the qualified item
    (the first in the table's order: a trainable parameter's master copy is its master copy)."""
    text = words(name)
    best = None
    for pattern, item, weight, order in _patterns(tuple(vocabulary.items())):
        if pattern.search(text) and (best is None or (weight, -order) > best[0]):
            best = ((weight, -order), item)
    if best is None:
        return None
    if best[1] in among:
        for pattern, item, _weight, _order in _patterns(tuple((qualifiers or {}).items())):
            if pattern.search(text):
                return item
    return best[1]


def run_facts(known: dict, seed: int) -> dict:
    """What a record maker is given (P5, C6): the facts its record is made from among others it
    leaves out, in name order, so that which facts make the record is the learner's to decide."""
    rng = random.Random(seed)
    other = {
        "host": f"node-{rng.randint(1, 64):02d}",
        "user": rng.choice(["ana", "li", "sam", "kim"]),
        "started_at": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00:00",
        "output_dir": f"/runs/{rng.randint(1000, 9999)}",
        "notes": rng.choice(["baseline", "lr sweep", "rerun"]),
    }
    assert not set(known) & set(other) and all(record_item(k) is None for k in other)
    return dict(sorted({**known, **other}.items()))


# What joins two names in one: "一阶矩和二阶矩", "m and v", "exp_avg / exp_avg_sq".
_JOINED = re.compile(r"\s*(?:\band\b|&|\+|/|,|、|，|和|与|及)\s*")


def state_part(name: str, *, frozen: bool = True) -> str | None:
    """Which part of the training state a name means (None: not recognised); a name of both AdamW
    moments ("AdamW 两个矩", "一阶矩与二阶矩", "m and v") is :data:`MOMENTS`, the group of the two.
    ``frozen=False``: only the parts of a trainable parameter ("base weights" are its weights)."""
    pieces = [p for p in _JOINED.split(name.lower()) if p.strip()]
    if len(pieces) > 1 and {_best(p, STATE_VOCABULARY, QUALIFIERS, WEIGHT_LIKE) for p in pieces} == {
        "adam_m",
        "adam_v",
    }:
        return MOMENTS
    part = _best(name, STATE_VOCABULARY, QUALIFIERS, WEIGHT_LIKE)
    return "weights" if part == FROZEN and not frozen else part


def members(item: str) -> tuple[str, ...]:
    """The parts a matched name stands for: a group's members, any other item itself."""
    return GROUPS.get(item, (item,))


def grouped(parts: dict, like) -> dict:
    """``parts`` (keyed by single parts) keyed as ``like`` is: a group that ``like`` holds gets its
    members' values summed (the truth said in the learner's grouping)."""
    out = dict(parts)
    for item in like:
        if item in GROUPS and all(m in out for m in GROUPS[item]):
            out[item] = sum(out.pop(m) for m in GROUPS[item])
    return out


def record_item(name: str) -> str | None:
    """Which item of the minimal run record a name means (None: none)."""
    return _best(name, RECORD_VOCABULARY)


def by_meaning(got, matcher: Callable[[str], str | None], wanted: tuple[str, ...], what: str) -> tuple[dict, dict]:
    """``got``'s values keyed by the grader's names, and the learner's key for each of them; a key
    that names a group of items (part 4's "AdamW 两个矩") is kept as the group (:data:`GROUPS`:
    compare the truth :func:`grouped` the same way).

    Fails when ``got`` is not a dict, when a key means none of ``wanted``, when two keys mean the
    same item, or when items are missing. Such a failure shows no expected value: the list of items
    is the fact recalled (part 4's breakdown, part 6's record), and the grader's keys are English."""
    if type(got) is not dict:
        fail(_("{what} must be a dict {{name: value}}", what=what), _("a dict"), type(got).__name__)
    values: dict = {}
    names: dict = {}
    covered: dict = {}  # each part asked for -> the item (a part, or a group of parts) that names it
    for name, value in got.items():
        name = as_str(name, _("a key of {what}", what=what))
        item = matcher(name)
        if item is None or not set(members(item)) <= set(wanted):
            fail(
                _("{what}: the key {name} does not name one of the items asked for", what=what, name=repr(name)),
                None,
                sorted(got),
            )
        twice = [covered[m] for m in members(item) if m in covered]
        if twice:
            fail(
                _(
                    "{what}: the keys {names} and {name} name the same item",
                    what=what,
                    names=repr(names[twice[0]]),
                    name=repr(name),
                ),
                None,
                sorted(got),
            )
        values[item], names[item] = value, name
        covered.update(dict.fromkeys(members(item), item))
    missing = [item for item in wanted if item not in covered]
    if missing:
        fail(_("{what}: some items are missing", what=what), None, sorted(got))
    return values, names


def in_their_names(values: dict, names: dict) -> dict:
    """``values`` (keyed by the grader's names) keyed by the learner's own names for them: what a
    failure shows is in the learner's words, never the grader's internal keys."""
    return {names[item]: value for item, value in values.items()}
