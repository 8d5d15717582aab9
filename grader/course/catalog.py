"""The exercise catalog: the single source of truth for ids, sets, course parts and key points.

Every exercise of the course (docs/maintaining.md) is registered here, built or not. An exercise is
*available* when its three files exist, all named by its module name::

    exercises/<module>.py              the stub the learner fills in
    solutions/<module>.py              the reference answer
    grader/checks/test_<module>.py     the hidden checks, one test function per key point

A key point's id is the name of its test function without ``test_``; it is shown with every
result, so it names what is checked, never the answer (tests/test_stubs_ask.py). Mutants of the solution
live in ``solutions/mutants/<module>/<name>.py`` (see ``tests/test_check_validity.py``).

A stub asks, it never answers (tests/test_stubs_ask.py): each exercise names the course's
question (``question``, quoted verbatim from the Chinese original) and the answers its stub must
not contain (``forbidden``, plus ``FORBIDDEN_EVERYWHERE``). The teaching is in the feedback: a
key point's ``claim`` says neutrally what is checked, ``reread`` where to study (the course's
heading, verbatim, beside the English), ``lesson`` what the course says. Each of these texts is an
English message id (``N_``) of the ``course`` catalog (grader/locale/zh/LC_MESSAGES/course.po); the
``*_text()`` methods give it in the current language (grader.i18n). A ``recall`` key point's
expected value is the fact being recalled: its expected value, hint and lesson are withheld
until it has failed three times or the learner asks (``grader grade --reveal``;
grader/engine/attempts.py).

Course parts: 1 Python, 2 NumPy/Pandas/Matplotlib, 3 training loop, 4 memory, 5 Hugging Face,
6 GPU & experiment management, 7 the review with the self-test.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from grader.course.do_not_call import rule_for
from grader.i18n import N_, _

ROOT = Path(__file__).resolve().parents[2]
CHECKS_DIR = ROOT / "grader" / "checks"

SETS = ("R", "A", "B", "C", "P", "X")
SET_TITLES = {
    "R": N_("Recall (read level)"),
    "A": N_("Judgement and calculation"),
    "B": N_("Cross-part synthesis"),
    "C": N_("Interview questions"),
    "P": N_("Five things to do"),
    "X": N_("Counter-intuitive conclusions"),
}
PART_TITLES = {
    1: N_("Python"),
    2: N_("NumPy / Pandas / Matplotlib"),
    3: N_("PyTorch training loop"),
    4: N_("Memory arithmetic"),
    5: N_("Hugging Face"),
    6: N_("GPU & experiment management"),
    7: N_("Review & self-test"),
}


FOLLOW_UP = N_("follow-up: ")  # how a C follow-up's claim starts


@dataclass(frozen=True)
class KeyPoint:
    """One sub-check.

    ``claim`` says what is checked, without the answer (it is printed in the catalog listing and
    in the release notebooks). ``reread`` says where to study: the course's heading, verbatim in
    Chinese, beside the English. ``lesson`` is what the course says about it, shown with the
    expected value. ``recall``: the expected value is the fact being recalled, so the expected
    value, the hint and the lesson are withheld on the first failures (grader/engine/attempts.py).
    """

    id: str
    claim: str
    reread: str
    followup: bool = False  # a C "follow-up direction": counts for can-teach only
    needs_gpu: bool = False  # reported "not verifiable here" on a machine without CUDA
    lesson: str = ""
    recall: bool = False
    hint_answers: bool = False  # its hints state the answer: withheld on the first failures as a recall fact's
    lesson_parts: tuple[str, ...] = field(default=(), repr=False)  # the message ids ``lesson`` joins

    def claim_text(self, *, prefix: bool = True) -> str:
        """``claim`` in the current language; ``prefix=False``: a follow-up's without FOLLOW_UP."""
        text = _(self.claim)
        return text if prefix or not self.followup else text.removeprefix(_(FOLLOW_UP))

    def reread_text(self) -> str:
        """``reread`` in the current language (the course's headings stay verbatim)."""
        return pointer_text(self.reread)

    def lesson_text(self) -> str:
        """``lesson`` in the current language: each part translated, the course's quotes kept."""
        return "".join(_(part) for part in self.lesson_parts or (self.lesson,))


@dataclass(frozen=True)
class Exercise:
    id: str  # "A3"
    module: str  # "a3_broadcast": the file name in exercises/, solutions/, grader/checks/
    set: str  # one of SETS
    part: int  # the course part it mainly draws on
    title: str
    key_points: tuple[KeyPoint, ...]
    timeout_s: float = 120.0  # wall clock for the whole exercise (checks + learner code)
    call_timeout_s: float = 20.0  # one call into the learner's code
    import_timeout_s: float = 30.0  # starting the learner's process and importing the module
    memory_gib: float = 4.0  # address-space cap of the learner's process
    needs_gpu: bool = False
    uses_cuda: bool = field(default=False, repr=False)
    question: str = ""  # the course's question, verbatim (Chinese); the stub must quote it
    forbidden: tuple[str, ...] = ()  # answers the stub must not contain (besides FORBIDDEN_EVERYWHERE)
    allowed: tuple[str, ...] = ()  # items of FORBIDDEN_EVERYWHERE the stub's contract must name (an enum value)

    def title_text(self) -> str:
        """``title`` in the current language."""
        return _(self.title)

    @property
    def check_file(self) -> Path:
        return CHECKS_DIR / f"test_{self.module}.py"

    @property
    def available(self) -> bool:
        return (
            self.check_file.exists()
            and (ROOT / "exercises" / f"{self.module}.py").exists()
            and (ROOT / "solutions" / f"{self.module}.py").exists()
        )

    @property
    def do_not_call(self) -> dict | None:
        """What its stub forbids the learner to call, as a watch rule (None: nothing)."""
        return rule_for(self.id)

    def gives_away(self, text: str) -> list[str]:
        """The items of ``forbidden`` that ``text`` states (case-insensitive; an item starting or
        ending with a letter or digit matches there as a whole word)."""
        flat = " ".join((text or "").split())
        return [item for item in self.forbidden if item_pattern(item).search(flat)]

    def key_point(self, kp_id: str) -> KeyPoint:
        for kp in self.key_points:
            if kp.id == kp_id:
                return kp
        raise KeyError(f"{self.id} has no key point {kp_id!r}")


@functools.cache
def item_pattern(item: str) -> re.Pattern:
    pattern = re.escape(" ".join(item.split()))
    if item[:1].isalnum():
        pattern = r"(?<![0-9A-Za-z_])" + pattern
    if item[-1:].isalnum():
        pattern += r"(?![0-9A-Za-z_])"
    return re.compile(pattern, re.IGNORECASE)


Lesson = str | tuple[str, ...]  # one message id, or several joined (each translated on its own)


def kp(id: str, claim: str, reread: str, lesson: Lesson = "", **kw) -> KeyPoint:
    parts = lesson if isinstance(lesson, tuple) else (lesson,) if lesson else ()
    return KeyPoint(id, claim, reread, lesson="".join(parts), lesson_parts=parts, **kw)


def fact(id: str, claim: str, reread: str, lesson: Lesson = "", **kw) -> KeyPoint:
    """A key point whose expected value is the fact being recalled (withheld at first)."""
    return kp(id, claim, reread, lesson, recall=True, **kw)


def set_title(set_id: str) -> str:
    """The set's title (SET_TITLES) in the current language."""
    return _(SET_TITLES[set_id])


def part_title(part: int) -> str:
    """The course part's title (PART_TITLES) in the current language."""
    return _(PART_TITLES[part])


def _ex(id, module, set_, part, title, *kps, **kw) -> Exercise:
    return Exercise(id, module, set_, part, title, tuple(kps), **kw)


# ---------------------------------------------------------------- where to re-read
# The course's headings, verbatim (shared/course/000_...txt is part 7, 001_...txt the L1 overview):
# a learner who searches the course text for a pointer's Chinese finds the place.
H1 = "第一篇：Python 使用层——读懂训练代码的语法、流式过一遍语料、把实验写成脚本"
H2 = "第二篇：科学计算栈——NumPy 的形状直觉、Pandas 的错误分析、Matplotlib 的曲线"
H3 = "第三篇：PyTorch 使用层（上）——五个对象与二十行训练循环"
H4 = "第四篇：PyTorch 使用层（下）——混合精度、显存的账与多卡启用"
H5 = "第五篇：Hugging Face 生态——六个库与一次 LoRA SFT 的组装"
H6 = "第六篇：GPU 直觉与实验管理——两个上限、四块显存、能复现"
H7_TABLE = "一、总览：系列回答的问题与主线"
H7_LINES = "三、贯穿全系列的几条线"
H7_MISTAKES = "四、常见误区"
H7_A = "A. 判断与计算（10 题）"
H7_B = "B. 跨篇综合（5 题）"
H7_C = "C. 面试题（7 题）"
H7_D = "D. 掌握判据"
L1_TODO = "八、自测清单：五件做出来的事"
L1_RECORD = "七、实验工具：让三个月前的结果能复现"


# Each pointer's message id, its fields and the course's headings, by the English text `at` returns.
_POINTERS: dict[str, tuple[str, dict, tuple[str, ...]]] = {}


def at(english: str, *chinese: str, **fields) -> str:
    """A re-read pointer: the English (a message id, ``fields`` filled in), then the course's headings verbatim."""
    text = f"{english.format(**fields)} — " + " · ".join(chinese)
    _POINTERS[text] = (english, fields, chinese)
    return text


def pointer_text(reread: str) -> str:
    """A re-read pointer made by :func:`at` in the current language; any other text as it is."""
    if reread not in _POINTERS:
        return reread
    english, fields, chinese = _POINTERS[reread]
    return f"{_(english, **fields)} — " + " · ".join(chinese)


P1_MUST = at(N_("part 1, must-remember"), H1, "必记")
P1_CONC = at(N_("part 1, conclusion"), H1, "结论")
P1_MIS = at(N_("part 1, misconceptions"), H1, "常见误解")
P2_MUST = at(N_("part 2, must-remember"), H2, "必记")
P2_CONC = at(N_("part 2, conclusion"), H2, "结论")
P2_MIS = at(N_("part 2, misconceptions"), H2, "常见误解")
P3_MUST = at(N_("part 3, must-remember"), H3, "必记")
P3_CONC = at(N_("part 3, conclusion (Autograd, the twenty lines)"), H3, "结论")
P4_MUST = at(N_("part 4, must-remember"), H4, "必记")
P4_CONC = at(N_("part 4, conclusion"), H4, "结论")
P4_MIS = at(N_("part 4, misconceptions"), H4, "常见误解")
P5_MUST = at(N_("part 5, must-remember"), H5, "必记")
P5_CONC = at(N_("part 5, conclusion"), H5, "结论")
P5_MIS = at(N_("part 5, misconceptions"), H5, "常见误解")
P6_MUST = at(N_("part 6, must-remember"), H6, "必记")
P6_CONC = at(N_("part 6, conclusion"), H6, "结论")
P6_MIS = at(N_("part 6, misconceptions"), H6, "常见误解")
P7_TABLE = at(N_("part 7, §一: the table of the six parts"), H7_TABLE)
P7_MISTAKES = at(N_("part 7, §四: the table of misconceptions"), H7_MISTAKES)
P7_LINES = at(N_("part 7, §三: the threads through the series"), H7_LINES)
P7_D = at(N_("part 7, §五.D: the mastery criteria"), H7_D)
L1_REC = at(N_("L1 overview, §七: the minimal record"), L1_RECORD)


def p7(set_: str, n: int, *, followup: bool = False) -> str:
    """Part 7's answer to question n of set A, B or C (its key points, or its follow-ups)."""
    heading = {"A": H7_A, "B": H7_B, "C": H7_C}[set_]
    if set_ == "C":
        if followup:
            return at(N_("part 7, §五.{set} question {n}, follow-up directions"), heading, "追问方向", set=set_, n=n)
        return at(N_("part 7, §五.{set} question {n}, key points"), heading, "答案要点", set=set_, n=n)
    return at(N_("part 7, §五.{set} question {n}, its answer"), heading, "答案", set=set_, n=n)


# ---------------------------------------------------------------- what the course says
# Shown with the expected value (for a recall key point: after repeated misses or --reveal).
L_GIL = N_(
    "the GIL lets one thread run Python bytecode at a time: CPU-bound threads give ~1.0x "
    "(serial / 8 threads / 8 processes = 0.46 / 0.46 / 0.15 s); processes, not threads, speed it up "
    "— 「GIL 让 CPU 密集的线程不并行，进程池才有用」"
)
L_STREAM = N_(
    "chain generators read -> filter -> dedupe -> count: one record plus the dedupe hash set is in "
    "memory, so the peak does not depend on the file's size — 「生成器让峰值内存与文件大小无关」"
)
L_LIST = N_(
    "a JSONL file read into a list of json.loads'd records peaks at about 5x its size (19.4 MB -> "
    "102.9 MB, 5.3x): 8 GB needs ~40 GB, 10 GB ~50 GB — 「按 5 倍算，10 GB 读成 list 要 50 GB」"
)
L_BROADCAST = N_(
    "broadcasting: align from the right; each dimension equal, or one of them 1 (or missing); the 1 "
    "is stretched — 「广播三条规则：右对齐；每维相等或其中一个是 1；为 1 的被复制」"
)
L_INDEX = N_(
    "nbytes = elements x bytes per element (bf16: 2); an integer index removes its dimension, a slice "
    "keeps it — 「整数索引消灭一维、切片保留一维」"
)
L_EINSUM = N_(
    "QK^T is 'btd,bsd->bts', PV is 'bts,bsd->btd'; with heads 'bhtd,bhsd->bhts' — "
    '「\\(QK^T\\) 是 "btd,bsd->bts"，\\(PV\\) 是 "bts,bsd->btd"」'
)
L_TOL = N_(
    "match a reference implementation to floating-point precision: float32 ~1e-6, float64 ~1e-12 — "
    "「对数值的标准：float32 约 \\(10^{-6}\\)、float64 约 \\(10^{-12}\\)」"
)
L_CI = N_(
    "ci95 = 1.96 sqrt(p(1-p)/n): 80 questions give ±10.9 points, too wide to tell 5 points apart — "
    "「ci95 \\(= 1.96\\sqrt{\\hat p(1 - \\hat p)/n}\\)」"
)
L_BANDS = N_(
    "several seeds: report mean and std, plot the mean with a shaded band; only bands that do not "
    "overlap show a difference — 「两条阴影带后期不重叠才算差别」"
)
L_LNV = N_(
    "the first-step loss should be ln V (a fresh model predicts about uniformly): 5.07 ~ ln 128 = 4.85; "
    "far above it means the output layer's initial logits are too large — "
    "「第一步 loss 该是 \\(\\ln V\\)」"
)
L_ACCUM = N_(
    "backward() adds into .grad, it never overwrites: every step needs zero_grad, and gradient "
    "accumulation needs no extra code — 「backward() 累加所以要 zero_grad」"
)
L_LOOP = N_(
    "the twenty lines add four things to the tutorial's five: autocast(bfloat16), .float() logits with "
    "ignore_index=-100, clip_grad_norm_(1.0), warmup + cosine; and zero_grad(set_to_none=True) after the "
    "step — 「.float() / ignore_index=-100 / clip_grad_norm_(1.0)」"
)
L_IGNORE = N_(
    "the label ignore index is -100: cross_entropy leaves those positions out — 「ignore_index=-100 是 SFT 的 "
    "loss mask」"
)
L_16 = N_(
    "16 bytes per trainable parameter = bf16 weight 2 + bf16 gradient 2 + fp32 master weight 4 + AdamW's "
    "two moments 4 + 4; a frozen parameter keeps its bf16 weight only — "
    "「16 字节 / 可训练参数 = bf16 权重 2 + bf16 梯度 2 + fp32 主权重 4 + AdamW 两个矩 4 + 4」"
)
L_LORA_STATE = N_(
    "LoRA freezes the base and keeps one bf16 copy (2 bytes/param); only the adapters pay the 16 "
    "bytes: Llama-3-8B 16.1 + 0.67 = 16.7 GB; full 128.5 GB; QLoRA 4.4 + 0.67 ~ 5.1 GB"
)
L_ACT = N_(
    "activations are outside the account: proportional to B x T x layers x d, not to the parameters "
    "(Llama-3-8B, B=1, T=4096: ~16.5 GiB, about 6 d-sized + 3 d_ff-sized tensors per token and layer); "
    "gradient checkpointing keeps only each layer's input (1.0 GiB) for ~30% more compute"
)
L_OOM = N_(
    "attribute an OOM by when it happens: at load, the weights; at the first backward, gradients and "
    "state; with longer sequences, activations (KV cache at inference); LoRA and still OOM: "
    "activations — 「OOM 按爆的时机归因」"
)
L_DDP = N_(
    "DDP keeps a full replica (state + its own activations) on every GPU and all-reduces the gradients "
    "(= an n-times larger batch); it needs the model to fit one GPU, otherwise FSDP shards parameters, "
    "gradients and state (128.5 GB over 8 GPUs: 16 GB each)"
)
L_LORA = N_(
    "LoRA adds (alpha/r) B A x: r x (in + out) parameters per hooked linear, linear in r; "
    "target_modules='all-linear' hooks the seven linears of every block (not lm_head); r = 16, "
    "alpha = 32 (alpha = 2r); Qwen2.5-0.5B r=16: 8.80M trainable; merging gives W' = W + (alpha/r) B A"
)
L_EOS = N_(
    "the end-of-sequence token must be in the loss, and often enough: mask the prompt and the padding "
    "to -100 by position, keep the EOS label; 85% of a batch's labels were -100 — "
    "「结束符必须进 loss、且要见够多次」"
)
L_RIDGE = N_(
    "ridge = peak FLOP/s / bandwidth = 989e12 / 3.35e12 ~ 295 FLOP/byte; decode reads every weight once "
    "for 2 FLOPs per token: intensity = batch; time = max(FLOPs / peak, bytes / bandwidth)"
)
L_DECODE = N_(
    "decode floor = bytes of the weights / bandwidth: 16.06 GB / 3.35 TB/s ~ 4.8 ms per token; "
    "quantization (fewer bytes) speeds memory-bound decode, not compute-bound training"
)
L_KV = N_(
    "KV cache per token = 2 (K and V) x layers x n_kv_heads x head_dim x bytes: Llama-3-8B "
    "2 x 8 x 128 x 32 x 2 = 131,072 B; GQA's fewer KV heads shrink it"
)
L_PROF = N_(
    "in a profiler table GEMM + attention should dominate; backward ~ 2x forward; device time much "
    "smaller than wall time means the device idles (data loading, .item() syncs, launches); "
    "copy_ / contiguous at the top means shape conversions"
)
L_RECORD = N_(
    "the minimal run record has seven items: run id, commit, config, data version, seed, environment, "
    "metrics — 「七项记录：run id · commit · 配置文件 · 数据版本 · seed · 环境 · 指标」"
)
L_SEED = N_(
    "the same seed twice must give the identical result (3.237898 both times); another seed moved a "
    "20-step run by 0.14 — 「同 seed 两次 3.237898 一致，seed 1 差 0.1404」"
)

# The rules without the course's numbers, for key points whose expected value is shown at the first
# failure (``kp``): what they teach must not give away a value a ``fact`` key point withholds.
L_GIL_RULE = N_(
    "the GIL lets one thread run Python bytecode at a time: CPU-bound threads keep one core busy; worker "
    "processes, each with its own interpreter, run on several — 「GIL 让 CPU 密集的线程不并行，"
    "进程池才有用」"
)
L_ACT_RULE = N_(
    "activations are outside the account: they grow with B x T x layers x d, not with the parameters; "
    "gradient checkpointing keeps only each layer's input and recomputes the rest — 「激活是账外的一块」"
)
L_LORA_RULE = N_(
    "LoRA adds (alpha/r) B A x beside a frozen linear: r x (in + out) parameters per hooked linear; "
    "target_modules='all-linear' hooks every linear of the blocks, not lm_head; merging folds it in: "
    "W' = W + (alpha/r) B A, the base model's shape"
)
L_KV_RULE = N_(
    "the KV cache keeps K and V of every layer for every token: two [B, n_kv_heads, T, head_dim] tensors "
    "per layer; GQA's fewer KV heads shrink it"
)
L_EOS_RULE = N_(
    "the end-of-sequence token must be in the loss, and often enough: the prompt and the padding are left "
    "out of it, the answer and its EOS kept — 「结束符必须进 loss、且要见够多次」"
)
L_BYTES_RULE = N_(
    "every tensor a step keeps counts numel x element_size: the weights (a tied embedding once), a "
    "gradient per trainable parameter and the optimizer's state — 「numel() × element_size() "
    "是任何张量的字节数」"
)
L_AMP = N_(
    "autocast(bfloat16) runs the matmuls in bf16 and keeps reductions such as the loss in fp32; the parameters "
    "stay fp32 — 「autocast(bfloat16) 是混合精度」"
)
L_FLOAT_LOSS = N_(
    "the loss is computed on fp32 logits, over the labelled positions only (the prompt and the padding are "
    "no targets) — 「.float() 是 softmax 的数值」"
)
L_SCHEDULE = N_("the learning rate warms up, then decays along a cosine to its minimum — 「不 warmup 前几步可能发散」")
L_LINES = N_(
    "forward, loss, backward(), clip, optimizer.step(), scheduler.step(), zero_grad: each line guards against "
    "its own accident — 「二十行里每一行对应一个概念」"
)
L_TRACE = N_(
    "each line of the loop leaves its sign in a trace: the lr moves only when the scheduler steps, the norm at "
    "the step stays bounded only when clipped, gradients pile up across steps unless cleared — "
    "「backward() 累加所以要 zero_grad」"
)

# Answers no stub may contain: the course's must-remember numbers and formulas, and the calls that
# would do the exercise for the learner. An item found in an exercise's own quoted question is
# allowed there (the question states what it states). Matched case-insensitively; an item that
# starts or ends with a letter or digit matches only as a whole word there.
FORBIDDEN_EVERYWHERE: tuple[str, ...] = (
    "-100",
    "131,072",
    "131072",
    "131 KB",
    "295",
    "4.8 ms",
    "4.85",
    "ln V",
    "ln(V",
    "ln 128",
    "log(V",
    "16 bytes",
    "2 + 2 + 4 + 4 + 4",
    "2+2+4+4+4",
    "14 bytes",
    "1.96",
    "989",
    "3.35",
    "8.03e9",
    "16.06",
    "41.9",
    "8,798,208",
    "8798208",
    "840,448",
    "840448",
    "128.5",
    "16.5 GiB",
    "1.0 GiB",
    "5.3x",
    "102.9",
    "11.5 MB",
    "0.46",
    "3.1x",
    "1.0x",
    "30x",
    "3.237898",
    "0.14",
    "85%",
    "10.9",
    "0.109",
    "merge_and_unload",
    "LambdaLR",
    "clip_grad_norm",
    "autocast",
    "ignore_index=",
    "set_to_none",
    "warmup + cosine",
    "cosine",
    "GIL",
    "global interpreter lock",
    "bytes / bandwidth",
    "/ bandwidth",
    "peak / bandwidth",
    "sqrt(d)",
    "√d",
    "r(m + n)",
    "alpha / r",
    "alpha/r",
    "(alpha/r)",
    "α/r",
    "nproc_per_node",
    "uniform",
    "natural log",
    "seven items",
    "seven-item",
    "K and V",
    "keys and values",
)

CATALOG: tuple[Exercise, ...] = (
    # ---------------------------------------------------------------- R
    _ex(
        "R",
        "r_recall",
        "R",
        7,
        N_("Must-remember numbers and conclusions of the six parts"),
        fact("bytes_per_param", N_("the bytes one trainable parameter costs, part by part"), P4_MUST, L_16),
        fact("ridge_point", N_("the ridge point of the roofline"), P6_MUST, L_RIDGE),
        fact("decode_floor", N_("the decode floor of one token at batch 1, in ms"), P6_MUST, L_DECODE),
        fact("kv_cache_per_token", N_("the KV-cache bytes of one token"), P6_MUST, L_KV),
        fact("first_step_loss", N_("the loss of the first training step for a vocabulary of V tokens"), P3_MUST, L_LNV),
        fact("ignore_index", N_("the label value that takes a position out of the loss"), P3_MUST, L_IGNORE),
        fact("einsum_qk", N_("the einsum subscripts of the scores QK^T"), P2_MUST, L_EINSUM),
        fact("einsum_pv", N_("the einsum subscripts of the output PV"), P2_MUST, L_EINSUM),
        fact("ci95", N_("the half-width of an accuracy's 95% interval"), P2_MUST, L_CI),
        fact("thread_speedup", N_("the thread speed-up of CPU-bound Python"), P1_MUST, L_GIL),
        fact(
            "part_topics",
            N_("which part teaches which topic"),
            P7_TABLE,
            N_(
                "1 Python, 2 NumPy / Pandas / Matplotlib, 3 the training loop, 4 memory arithmetic (mixed "
                "precision, the account, multi-GPU), 5 Hugging Face, 6 GPU intuition & experiment management"
            ),
        ),
        fact("run_record_items", N_("the items of the minimal run record"), P6_MUST, L_RECORD),
        question="哪些数字与结论必须能脱口而出？",
        forbidden=(
            "5 x",
            "fp32 master",
            "adam_m",
            "exp_avg",
            "first moment",
            "second moment",
            "bf16 weights",
            "btd",
            "bsd",
            "bts",
            "bhtd",
            "->bts",
            "p(1-p)",
            "p(1 - p)",
            "sqrt(p",
            "normal approximation",
            "z_0.975",
            "0.11",
            "11 points",
            "1/V",
            "read once",
            "run id",
            "run_id",
            "data version",
            "commit",
            "environment",
            "seven",
            "Python, 2",
            "memory arithmetic",
            "Hugging Face",
            "9.6",
            "209",
        ),
    ),
    # ---------------------------------------------------------------- A
    _ex(
        "A1",
        "a1_streaming",
        "A",
        1,
        N_("An 8 GB JSONL corpus on a 32 GB machine"),
        kp(
            "pipeline_counts",
            N_("read -> filter -> exact dedupe -> count gives the right counts on generated files"),
            P1_CONC,
            L_STREAM,
        ),
        kp(
            "peak_vs_file_size",
            N_(
                "the pipeline's peak memory, read from outside its process (VmHWM, VmPeak), on a small and a large file"
            ),
            P1_MUST,
            L_STREAM,
        ),
        kp(
            "runs_under_rlimit",
            N_(
                "the pipeline finishes under an address-space limit set before the learner's "
                "code runs, well below what holding the records would take"
            ),
            P1_MUST,
            L_STREAM,
        ),
        fact(
            "fits_in_memory",
            N_("whether a JSONL file read into a list fits in RAM, against the measured list peak"),
            P1_MUST,
            L_LIST,
        ),
        timeout_s=240,
        question="一份 8 GB 的 JSONL，机器内存 32 GB。json.loads 后读成 list 能不能装下？用生成器峰值大约多少？",
        forbidden=(
            "independent of",
            "5x",
            "5 x",
            "five times",
            "several times",
            "40 GB",
            "50 GB",
            "hash set",
            "set of hashes",
            "hashlib",
            "sha1",
            "digest",
            "readlines",
            "line by line",
            "read()",
            "list(f)",
            "one record",
            "19.4",
        ),
    ),
    _ex(
        "A2",
        "a2_nbytes_index",
        "A",
        2,
        N_("Bytes of a tensor and the shape after indexing"),
        kp(
            "nbytes_matches_meta_tensor",
            N_("nbytes(shape, dtype) against a meta-device tensor's nbytes"),
            P2_CONC,
            L_INDEX,
        ),
        kp(
            "half_precision_nbytes",
            N_("nbytes of bfloat16 and float16 tensors, the course's example first"),
            P2_CONC,
            L_INDEX,
        ),
        kp("integer_index_shape", N_("the shape after an integer index, the course's example first"), P2_CONC, L_INDEX),
        kp(
            "slice_shape",
            N_("the shape after a slice (also of one element or none), the course's example first"),
            P2_CONC,
            L_INDEX,
        ),
        kp(
            "full_index_expressions",
            N_("shapes after mixed index expressions (ellipsis, None, negative ints, steps)"),
            P2_CONC,
            L_INDEX,
        ),
        question="x = torch.zeros(16, 512, 1024, dtype=torch.bfloat16)：x.nbytes 多少？x[:, -1] 与 x[:, -1:] "
        "各是什么形状？",
        forbidden=(
            "two bytes",
            "keeps dim",
            "2 bytes",
            "16 MiB",
            "16,777,216",
            "16777216",
            "(16, 1024)",
            "(16, 1, 1024)",
            "removes",
            "keeps the dimension",
            "drops",
            "len(range",
            "s.indices",
            "inserts",
            "as many",
        ),
    ),
    _ex(
        "A3",
        "a3_broadcast",
        "A",
        2,
        N_("Broadcast two shapes"),
        kp(
            "matches_numpy",
            N_("broadcast_shape against np.broadcast_shapes on broadcastable shapes"),
            P2_MUST,
            L_BROADCAST,
        ),
        kp("different_lengths", N_("shapes of different lengths, the course's example first"), P2_MUST, L_BROADCAST),
        kp("raises_on_incompatible", N_("incompatible shapes raise ValueError, as numpy does"), P2_MUST, L_BROADCAST),
        question="(8, 1, 64) + (16, 64) 能广播吗？结果什么形状？",
        forbidden=(
            "(8, 16, 64)",
            "from the right",
            "right-align",
            "align",
            "stretched",
            "missing leading",
            "counts as 1",
            "one of them",
            "equal or",
            "(4, 3)",
        ),
    ),
    _ex(
        "A4",
        "a4_grad_accum",
        "A",
        3,
        N_("What backward() does to .grad, and gradient accumulation"),
        kp(
            "repeated_backward",
            N_("w.grad after k backward calls without clearing, against autograd, the course's example first"),
            P3_CONC,
            L_ACCUM,
        ),
        kp(
            "matches_full_batch",
            N_("an accumulation step over micro-batches of different lengths against the full-batch gradient (1e-6)"),
            P3_CONC,
            L_ACCUM,
        ),
        question="第三篇的手算例子 \\(w = 3\\)、\\(x = 2\\)、\\(L = (wx - 1)^2\\)，每次重新前向、连续 backward() "
        "三次而不 zero_grad，w.grad 是多少？",
        forbidden=(
            "60",
            "= 20",
            "adds into",
            "accumulates",
            "overwrite",
            "clear them",
            "1/k",
            "valid tokens",
            "scale",
            "summed loss",
            "zero_grad once",
        ),
    ),
    _ex(
        "A5",
        "a5_first_loss",
        "A",
        3,
        N_("The loss of the first training step"),
        fact("expected_first_loss", N_("the expected first-step loss for drawn vocabulary sizes"), P3_MUST, L_LNV),
        fact(
            "flags_suspicious_loss",
            N_("the judgement on whether a first loss is suspicious"),
            P3_MUST,
            L_LNV,
        ),
        fact(
            "init_first_loss",
            N_("the first loss of a real tiny GPT with the learner's output-layer init"),
            P3_MUST,
            (L_LNV, N_("; keep a logit's std (about std(weight) x sqrt(d)) well below 1, e.g. std 0.02")),
        ),
        question="用 Qwen2.5-0.5B（词表 151936）从头初始化训练，第一步 loss 应约多少？看到 15.0 说明什么？",
        forbidden=(
            "11.9",
            "11.93",
            "-ln",
            "1 nat",
            "1.0 nat",
            "0.5 nat",
            "1.5",
            "0.02",
            "std 1",
            "logits are too large",
            "too large",
            "kaiming",
        ),
    ),
    _ex(
        "A6",
        "a6_training_state",
        "A",
        4,
        N_("Full vs LoRA training-state memory"),
        fact(
            "full_finetune_bytes",
            N_("full fine-tuning's training-state bytes, the course's 3B question first"),
            P4_MUST,
            L_16,
        ),
        fact(
            "lora_bytes",
            N_("LoRA's training-state bytes (frozen base + adapters), the course's 3B question first"),
            P4_CONC,
            (L_16, N_("; "), L_LORA_STATE),
        ),
        kp(
            "matches_real_tensors",
            N_(
                "the total and its parts against real tensors after one step (full and peft LoRA), set up in "
                "the course's bf16 convention"
            ),
            P4_MUST,
            L_16,
        ),
        question="一个 3B 模型全量微调（bf16 + AdamW）不算激活要多少显存？一张 24 GB 的卡够不够？改成可训练 1% 的 LoRA "
        "呢？",
        forbidden=(
            "48 GB",
            "48 * 10",
            "6.5 GB",
            "6.48",
            "2 bytes",
            "4 bytes",
            "master",
            "adam_m",
            "adam_v",
            "first moment",
            "second moment",
            "grads",
            "fp32 copies",
            "bf16 weights",
            "only its bf16",
        ),
    ),
    _ex(
        "A7",
        "a7_activations",
        "A",
        4,
        N_("Activation memory, with and without checkpointing"),
        kp(
            "growth_with_inputs",
            N_(
                "how the activation estimate grows with B, T, the vocabulary and the dtype, "
                "against the measured growth (ratios within 1.2x)"
            ),
            P4_MUST,
            N_(
                "the expected values are measured ratios, shown as they are: the saved tensors grow with what the "
                "blocks process, and bf16 saves some tensors in fp32 (RMSNorm's upcast)"
            ),
        ),
        fact(
            "checkpointed_bytes",
            N_("activations under gradient checkpointing against the measured bytes, and the course's model"),
            P4_MUST,
            L_ACT,
        ),
        kp(
            "tracks_measurement",
            N_(
                "activations without checkpointing within 0.5x-1.25x of the bytes measured with "
                "saved_tensors_hooks on real Llama models"
            ),
            P4_MUST,
            L_ACT_RULE,
        ),
        question="Llama-3-8B 微调，\\(B = 2\\)、\\(T = 8192\\)，不开 checkpointing 的激活约多少？开了呢？",
        forbidden=(
            "keeps inputs",
            "scales with",
            "6 d",
            "6d",
            "3 d_ff",
            "6 vectors",
            "layer's input",
            "layer input",
            "keeps only",
            "its input",
            "B x T",
            "B × T",
            "proportional",
            "66 GiB",
            "4 GiB",
            "32 MiB",
            "T x T",
            "recompute",
        ),
    ),
    _ex(
        "A8",
        "a8_lora_params",
        "A",
        5,
        N_("LoRA's trainable parameters from a config"),
        kp(
            "matches_peft",
            N_("the count against peft on a meta-device model for drawn configs and targets"),
            P5_MUST,
            L_LORA_RULE,
        ),
        fact("qwen_0_5b", N_("the course's Qwen2.5-0.5B at r = 16, all-linear"), P5_MUST, L_LORA),
        fact("change_with_r", N_("how the count changes with r"), p7("A", 8), L_LORA),
        question="第五篇的 0.5B 模型 \\(r = 16\\) 时可训练 8.80M、训练状态 141 MB；把 r 改成 32，两者各变成多少？",
        forbidden=(
            "17.6",
            "282",
            "r x (in",
            "r * (in",
            "r·(",
            "in_features",
            "out_features",
            "seven",
            "7 linear",
            "lm_head",
            "kv_heads*head_dim",
            "heads*head_dim",
            "d -> d_ff",
            "doubles",
            "linear in r",
            "proportional",
        ),
    ),
    _ex(
        "A9",
        "a9_kv_cache",
        "A",
        6,
        N_("KV-cache bytes, and whether they fit"),
        kp(
            "matches_dynamic_cache",
            N_("the bytes against a real DynamicCache after a forward of a tiny GQA model"),
            P6_MUST,
            L_KV_RULE,
        ),
        fact(
            "llama3_8b_per_token",
            N_("the course's Llama-3-8B per token, and real configs for drawn B x T"),
            P6_MUST,
            L_KV,
        ),
        fact(
            "fits_decision",
            N_("the decision on GPUs drawn around the exact need, the course's question first"),
            P6_CONC,
            (L_KV, N_("; weights + KV cache must fit: 128 x 4K on Llama-3-8B is 68.7 GB + 16 GB ~ 85 GB > 80 GB")),
        ),
        question="Llama-3-8B bf16 推理，128 个并发请求、每个 4K 上下文，KV cache 多大？加上权重能不能放进一张 80 GB "
        "卡？",
        forbidden=(
            "68.7",
            "85 GB",
            "n_kv_heads, seq_len",
            "[batch, n_kv",
            "[B, n_kv_heads",
            "K and V of",
            "2 x",
            "2 *",
            "per layer",
            "<= gpu",
        ),
    ),
    _ex(
        "A10",
        "a10_profile_idle",
        "A",
        6,
        N_("Where did the step's time go"),
        fact("idle_fraction", N_("the device's idle fraction, the course's question first"), P6_MUST, L_PROF),
        kp(
            "device_time_from_ops",
            N_("device time from the op rows of a real profile"),
            P6_CONC,
            N_("a row's total time includes the ops it called: add up self times, or nested work counts twice"),
        ),
        kp(
            "classifies_real_profiles",
            N_("the label of real torch.profiler runs whose time goes to different places"),
            P6_MUST,
            L_PROF,
        ),
        timeout_s=240,
        question="一步训练墙钟 300 ms，profiler 表里 CUDA 时间合计 90 ms、aten::mm 与 attention 占其中 60%。"
        "瓶颈最可能在哪？",
        forbidden=(
            "0.7",
            "70%",
            "1 - device",
            "device / wall",
            "more than half",
            "half of",
            "at least half",
            "self times",
            "sum of self",
            "counted once",
            "more than once",
            "GEMM",
            "copy_",
            "contiguous",
            "data loading",
            ".item()",
            "launch",
        ),
    ),
    # ---------------------------------------------------------------- B
    _ex(
        "B1",
        "b1_lora_oom",
        "B",
        4,
        N_("A LoRA SFT whose account fits, and still runs out of memory"),
        fact("overflowing_block", N_("which block overflows, on drawn budgets and the course's"), P4_MIS, L_ACT),
        fact(
            "activations_at_new_shape",
            N_("activations at a new B, T against real models, and the course's 8B"),
            P4_MUST,
            L_ACT,
        ),
        fact(
            "activations_after_fix",
            N_(
                "activations after the fix that keeps the model, B and T, against the "
                "measurement, and the course's 8B at B=4, T=8192"
            ),
            P4_MUST,
            L_ACT,
        ),
        kp(
            "plans_that_fit",
            N_("the other two plans against the constraints they must meet, on drawn budgets"),
            P3_CONC,
            L_ACCUM,
        ),
        question="8B LoRA SFT 在一张 80 GB 卡上，账算出 16.7 GB，但 SFTConfig 里 max_length=8192、每卡 batch 4 时 OOM。"
        "哪一块爆了？改什么？",
        forbidden=(
            "activation block",
            "checkpointing fix",
            "or shorter",
            "132",
            "8 GiB",
            "8x",
            "x 8",
            "B x T",
            "proportional",
            "layer's input",
            "B x T x hidden",
            "largest divisor",
            "look at the activations",
            "not the parameters",
            "checkpointing",
            "checkpointed",
            "checkpoint",
            "accumulation",
            "accumulate",
            "accumulated",
            "micro",
            "max_seq_len",
            "shorter",
            "in the order they are allocated",
            "the state, then",
        ),
    ),
    _ex(
        "B2",
        "b2_is_it_real",
        "B",
        6,
        N_("Half a point better: is it real?"),
        fact("record_diff", N_("which settings two run records differ in"), P6_MUST, L_RECORD),
        kp(
            "score_verdict",
            N_(
                "the verdict on drawn seed scores and eval sizes, and course-like cases (part 2's "
                "five-seed example among them, under the stub's band width)"
            ),
            P2_MUST,
            (L_BANDS, N_("; "), L_CI),
        ),
        question="两次”同样配置”的 SFT，评测差 0.5 个点，同事说新配置更好。用哪几篇的什么判断？",
        forbidden=(
            "commit",
            "data_version",
            "environment",
            "run_id",
            "metrics",
            "seven",
            "fewer than 2",
            "ddof",
            "overlap",
            "ci95",
            "sqrt(",
            "std",
        ),
    ),
    _ex(
        "B3",
        "b3_never_stops",
        "B",
        5,
        N_("The model answers but never stops"),
        fact(
            "padded_batch_labels",
            N_("the labels of real right-padded batches, against the reference data path"),
            P5_MUST,
            L_EOS,
        ),
        kp(
            "collator_diagnosis",
            N_("the findings on batches labelled by the reference and by buggy collators"),
            P5_MUST,
            L_EOS_RULE,
            hint_answers=True,
        ),
        question="微调后的模型回答正确但一直不停、吐乱码。从哪一行、哪个文件查？",
        forbidden=(
            "eos kept",
            "by position",
            "by token id",
            "never by",
            "pad_token = eos_token",
            "pad = EOS",
            "pad id 0",
            "(id 0)",
            "id 0",
            "masks every",
            "EOS label",
            "in the loss often",
            "completion_only_loss",
            "sft_trainer",
            "attention mask 1) whose",
            "is not a finding",
            "find_masked_eos",
            "masked_eos",
            "that the loss does not see",
            "also occurs among the real tokens",
        ),
    ),
    _ex(
        "B4",
        "b4_merged_decode",
        "B",
        6,
        N_("The decode floor of a merged LoRA model"),
        fact(
            "decode_floor",
            N_("the batch-1 decode floor on drawn models and cards, and the course's"),
            P6_MUST,
            L_DECODE,
        ),
        kp(
            "merged_logits",
            N_("the merged model, loaded into a plain base model, against the unmerged logits"),
            P5_MUST,
            L_LORA_RULE,
            hint_answers=True,
        ),
        question="第五篇那个 Qwen2.5-0.5B merge_and_unload 后部署在 H100 上，batch 1 decode 每 token "
        "的下限约多少？合并前后这个数字变不变？",
        forbidden=(
            "parameter count",
            "same outputs",
            "equals unmerged",
            "0.29",
            "0.3 ms",
            "0.99",
            "494",
            "n_params * bytes",
            "* 1e3",
            "W'",
            "W +",
            "B A",
            "BA",
            "unload()",
            "zero inference overhead",
            "negligible",
            "memory-bound",
        ),
    ),
    _ex(
        "B5",
        "b5_ddp",
        "B",
        4,
        N_("A LoRA SFT on 8 GPUs in DDP mode"),
        kp(
            "per_gpu_memory",
            N_("bytes per GPU under DDP, against a real LoRA replica's state"),
            P4_CONC,
            L_DDP,
            hint_answers=True,
        ),
        fact(
            "effective_batch",
            N_("the effective batch, and the all-reduce against the full-batch gradient"),
            P4_CONC,
            L_DDP,
        ),
        kp(
            "launch_command",
            N_("the launch command, as torchrun's own parser reads it"),
            P1_MUST,
            N_("torchrun --nproc_per_node=N starts N processes, one per GPU (accelerate launch does the same)"),
            hint_answers=True,
        ),
        question="用 accelerate launch 在 8 卡上跑 8B LoRA SFT，DDP 模式。"
        "每张卡显存约多少？为什么每张卡是一个进程而不是一个线程？有效 batch 是多少？",
        forbidden=(
            "averages",
            "not threads",
            "full replica",
            "replica per",
            "divide",
            "/ n_gpus",
            "x GPUs",
            "per-GPU batch x",
            "mean of the",
            "average",
            "--nproc",
            "one process per GPU",
            "bytecode",
            "16.7 GB",
        ),
    ),
    # ---------------------------------------------------------------- C
    _ex(
        "C1",
        "c1_70b_plan",
        "C",
        4,
        N_("A 70B fine-tuning plan"),
        fact(
            "bytes_per_param_parts",
            N_("the bytes per trainable parameter by part, against real tensors after one AdamW step"),
            p7("C", 1),
            L_16,
        ),
        fact(
            "full_finetune_total",
            N_("full fine-tuning's state and GPU count, the course's 70B first"),
            p7("C", 1),
            L_16,
        ),
        fact(
            "lora_total",
            N_(
                "LoRA's state against real peft tensors set up in the course's bf16 convention, and the "
                "course's 70B at 1.3%"
            ),
            p7("C", 1),
            (L_16, N_("; "), L_LORA_STATE),
        ),
        kp(
            "per_gpu_with_activations",
            N_("bytes per GPU with activations, under DDP and FSDP"),
            p7("C", 1),
            (
                L_ACT_RULE,
                N_("; DDP keeps the whole state on every GPU, FSDP shards it; neither shards the activations"),
            ),
        ),
        fact("ddp_vs_fsdp", N_("the choice between DDP and FSDP, and each one's bytes per GPU"), p7("C", 1), L_DDP),
        fact(
            "qlora_state",
            N_("follow-up: QLoRA's state, and the course's 70B"),
            p7("C", 1, followup=True),
            N_("QLoRA stores the frozen base in 4 bits, ~0.5 bytes per parameter: 70B QLoRA fits one 80 GB GPU"),
            followup=True,
        ),
        fact(
            "inference_bytes",
            N_("follow-up: the bytes bf16 inference needs"),
            p7("C", 1, followup=True),
            N_("inference keeps only the bf16 weights: 2 of the 16 bytes, 1/8 of training"),
            followup=True,
        ),
        question="让你微调一个 70B 模型，全量还是 LoRA、几张 80 GB 卡？把账算给我看。",
        forbidden=(
            "fraction of a byte",
            "sixteen",
            "half byte",
            "activations outside",
            "1120",
            "1,120",
            "155 GB",
            "14 GPUs",
            "640",
            "0.5 byte",
            "half a byte",
            "4 bits",
            "4-bit",
            "1/8",
            "eighth",
            "2 of the",
            "16 x",
            "outside the",
            "not sharded",
            "split evenly",
            "shards",
            "master",
            "adam_m",
            "adam_v",
            "fp32",
            "2 bytes",
        ),
    ),
    _ex(
        "C2",
        "c2_loss_triage",
        "C",
        3,
        N_("The loss does not fall: in what order do you look"),
        fact(
            "first_loss_verdict",
            N_("the first-loss verdict on real first losses of a char GPT and on drawn ones"),
            p7("C", 2),
            L_LNV,
        ),
        kp(
            "shape_guard",
            N_("the shape guard on shapes that torch's cross_entropy runs on silently"),
            p7("C", 2),
            N_(
                "shapes: a wrong axis or view(-1, V) against transposed labels raises nothing; assert the shapes "
                "before the loss — 「loss 前 assert 形状」"
            ),
        ),
        kp(
            "missing_line",
            N_("the missing line, read from real short runs with one line removed"),
            p7("C", 2),
            L_TRACE,
            hint_answers=True,
        ),
        kp(
            "grad_norm_curve",
            N_("follow-up: the judgement on drawn gradient-norm curves"),
            p7("C", 2, followup=True),
            N_("a healthy curve: a larger first step, then small values; a later spike or a NaN is not healthy"),
            followup=True,
        ),
        question="训练 loss 不降或第一步就异常，你排查的顺序是什么？",
        allowed=("clip_grad_norm",),  # missing_line's answers are a closed list of line names
        forbidden=(
            "1 nat",
            "median",
            "5 x",
            "shapes second",
            "10.4",
            "ln 32000",
            "labels_shape + (",
            "+ (V,)",
            "transposed",
            "never changes",
            "1.25",
            "above 1.0",
            "1.0 +",
            "1e-3",
            "too_high if",
            "output layer's init",
            "leak",
            "0.3",
            "~2.0",
            # grad_norm_healthy's rule (a late spike far above the rest, a NaN) is what the follow-up asks
            "6 or more times",
            "6 倍",
            "not a finite number",
            "不是有限数",
        ),
    ),
    _ex(
        "C3",
        "c3_decode_roofline",
        "C",
        6,
        N_("Why inference is fast only at large batch"),
        kp(
            "decode_step_cost",
            N_("a decode step's FLOPs and bytes against FlopCounterMode on a real model, and its intensity"),
            p7("C", 3),
            L_RIDGE,
        ),
        fact(
            "ridge",
            N_("the ridge point and the roofline on drawn hardware, and the course's decode floor"),
            p7("C", 3),
            (L_RIDGE, N_("; "), L_DECODE),
        ),
        fact(
            "quantization_speedup",
            N_("the roofline speed-up of quantization, for decode and for prefill / training"),
            p7("C", 3),
            L_DECODE,
        ),
        kp(
            "moe_decode_cost",
            N_("follow-up: an MoE decode step's FLOPs and bytes"),
            p7("C", 3, followup=True),
            N_(
                "MoE decode computes with each token's active experts only, but a batch's tokens reach different "
                "experts: at a serving batch every expert's weights are read — 「FLOPs 降但全部专家权重都要读」"
            ),
            followup=True,
        ),
        question="为什么 LLM 推理 batch 大才快？量化为什么对推理有效、对训练用处不大？",
        forbidden=(
            "equals batch",
            "helps decode",
            "decode hard",
            "max(",
            "2 FLOPs",
            "multiply-add",
            "intensity = batch",
            "~ batch",
            "4x",
            "~1x",
            "read once",
            "every expert's",
            "all experts",
            "active experts",
            "only active",
            "below the ridge",
            "routed to every expert",
            "to every expert",
            "large enough",
            "shared by the batch",
            "26700",
            "flops / nbytes",
            "memory-bound",
            "compute-bound",
        ),
    ),
    _ex(
        "C4",
        "c4_oom_attribution",
        "C",
        4,
        N_("CUDA out of memory: which block"),
        kp(
            "memory_blocks",
            N_("each block's bytes against real LoRA tensors (the course's bf16 convention, or peft's default)"),
            p7("C", 4),
            (L_16, N_("; "), L_OOM),
        ),
        fact("oom_attribution", N_("the block of drawn OOM events and the course's"), p7("C", 4), L_OOM),
        fact(
            "remedy_per_block",
            N_("each block's remedies, and the largest batch that fits"),
            p7("C", 4),
            N_(
                "weights: bf16 / quantize / more GPUs; grads and state: LoRA / FSDP / 8-bit optimizer; activations: "
                "checkpointing / smaller batch + accumulation / shorter sequences; KV cache: fewer requests / "
                "shorter context"
            ),
        ),
        kp(
            "kv_cache_gqa",
            N_("follow-up: the KV cache with GQA against a real DynamicCache"),
            p7("C", 4, followup=True),
            L_KV,
            followup=True,
        ),
        fact(
            "activation_estimate",
            N_("follow-up: the course's activation estimate, on drawn configs and its 8B"),
            p7("C", 4, followup=True),
            L_ACT,
            followup=True,
        ),
        question="CUDA out of memory，你怎么定位落在哪一块？",
        forbidden=(
            "by when",
            "four blocks",
            "2 bytes",
            "bf16 copies",
            "loading ->",
            "load ->",
            "first backward ->",
            "look at activations",
            "6 vectors",
            "6 d",
            "3 d_ff",
            "E.g. weights",
            "LoRA / FSDP",
            "2 (K",
            "n_kv_heads x",
        ),
    ),
    _ex(
        "C5",
        "c5_four_additions",
        "C",
        3,
        N_("The lines of an LLM training loop the MNIST tutorial lacks"),
        kp(
            "amp_step",
            N_("under amp_dtype=bf16: the loss and the gradient against the course's loop; parameters' dtype"),
            p7("C", 5),
            L_AMP,
            hint_answers=True,
        ),
        kp(
            "loss_value",
            N_("the loss on targets with ignored positions, against the course's loss"),
            p7("C", 5),
            L_FLOAT_LOSS,
            hint_answers=True,
        ),
        fact("step_gradient", N_("the gradient optimizer.step() sees, read from the weights"), p7("C", 5), L_LOOP),
        kp(
            "learning_rates",
            N_("the learning rate of lr_at and of each optimizer.step()"),
            p7("C", 5),
            L_SCHEDULE,
            hint_answers=True,
        ),
        kp(
            "accumulated_step",
            N_("follow-up: an accumulated step against the full-batch gradient"),
            p7("C", 5, followup=True),
            L_ACCUM,
            followup=True,
            hint_answers=True,
        ),
        timeout_s=240,
        question="不用 Trainer 写一个 LLM 的训练循环，哪几行是 MNIST 教程里没有的、各在防什么？",
        forbidden=(
            "linearly",
            "ignore index",
            "grad accumulation",
            "four",
            "bfloat16)",
            ".float()",
            "float()",
            "max_norm",
            "1.0)",
            "norm 1",
            "lambda",
            "zero_grad",
            "divided by k",
            "/ k",
            "each loss divided",
            "in fp32",
            "reductions",
            "diverge",
            "prompt and padding",
        ),
    ),
    _ex(
        "C6",
        "c6_trustworthy",
        "C",
        6,
        N_("A conclusion people can trust"),
        kp("seeds", N_("mean and sample std over seeds, and whether bands overlap"), p7("C", 6), L_BANDS),
        fact("ci95", N_("the ci95 half-width on drawn cases and the course's 80 questions"), p7("C", 6), L_CI),
        kp(
            "per_question_diff",
            N_("the improved and degraded questions of two drawn eval tables (an inner merge)"),
            p7("C", 6),
            N_("merge the two eval tables and read the questions that changed, not only the total"),
        ),
        fact(
            "run_record",
            N_("the record's items and values against this interpreter and the data file"),
            p7("C", 6),
            L_RECORD,
        ),
        kp("seeded_reruns", N_("the experiment run twice with one seed and once with another"), p7("C", 6), L_SEED),
        fact(
            "changed_data",
            N_("follow-up: what the record says of a data file, and of the file once changed"),
            p7("C", 6, followup=True),
            N_("the data version is the file's hash (or a datasets revision): changed data is another experiment"),
            followup=True,
        ),
        question="你的实验结论要让人信，从设计到记录你会做哪些事？",
        forbidden=(
            "run_id",
            "run id",
            "commit",
            "data_version",
            "data version",
            "environment",
            "seven",
            "SEVEN_ITEMS",
            "manual_seed",
            "Generator(",
            "sqrt(",
            "pandas",
            "merge +",
            "query",
            "mean ± std",
            "mean +- std",
            "± std",
            "+- std",
            "Touching counts",
            "touching",
        ),
    ),
    _ex(
        "C7",
        "c7_jsonl_plan",
        "C",
        1,
        N_("Clean, dedupe and tokenize 10 GB of JSONL"),
        kp(
            "peak_memory",
            N_("unique_texts's peak resident memory, read from outside, on a file and on it repeated 8x"),
            p7("C", 7),
            L_STREAM,
        ),
        kp(
            "parallel_tokenizing",
            N_(
                "where the tokenizing's CPU time is spent and how its peak memory grows with the file, "
                "both read from /proc"
            ),
            p7("C", 7),
            (
                L_GIL_RULE,
                N_(
                    "; e.g. multiprocessing.Pool(n_workers).imap(tokenize, texts, chunksize=...): a chunksize "
                    "sends a batch of texts per pickle round-trip"
                ),
            ),
        ),
        kp("exact_dedupe", N_("exact dedupe of the cleaned texts, first occurrences in order"), p7("C", 7), L_STREAM),
        fact(
            "why_not_linear",
            N_("follow-up: why the parallel version falls short of a linear speed-up, against the course"),
            p7("C", 7, followup=True),
            N_(
                "8 processes reach 3.1x, not 8x: the gap is process start-up and pickling — 「差在进程启动与 pickle，"
                "chunksize 是最重要的旋钮」"
            ),
            followup=True,
        ),
        question="一份 10 GB 的 JSONL 要清洗、去重、tokenize，机器 16 GB 内存 8 核，怎么做到又快又不爆内存？",
        forbidden=(
            "amdahl",
            "streaming",
            "generator",
            "yield",
            "set of",
            "hash",
            "SHA-256",
            "sha256",
            "process pool",
            "processes, not",
            "not threads",
            "imap(",
            "chunksize=chunksize",
            "pickle",
            "1 / (",
            "min(n_workers",
            "multiprocessing",
            "multiprocessing.pool",
            "ThreadPool",
            "Pool",
            "chunksize",
            "handing them",
            "worker processes",
            "its children",
            "in the parent",
            "processes",
        ),
    ),
    # ---------------------------------------------------------------- P
    _ex(
        "P1",
        "p1_causal_attention",
        "P",
        2,
        N_("Causal attention in einsum"),
        kp(
            "float32_matches_sdpa",
            N_("float32 output against F.scaled_dot_product_attention(is_causal=True)"),
            P2_MUST,
            L_TOL,
        ),
        kp("float64_matches_sdpa", N_("float64 output against SDPA"), P2_MUST, L_TOL),
        kp(
            "no_future_leak",
            N_("changing later queries, keys or values never changes an earlier output"),
            P2_CONC,
            N_("causal: position t attends to keys s <= t only; the future gets weight exactly 0"),
        ),
        kp(
            "attention_weights",
            N_("the attention weights against SDPA's (the output for v = identity)"),
            P2_CONC,
            N_(
                "attention weights = softmax over the key axis of QK^T / sqrt(d), future keys masked — "
                "「attention 沿 key 维」"
            ),
        ),
        kp(
            "large_logits",
            N_("large logits: finite and still matching SDPA"),
            P2_MUST,
            (L_TOL, N_("; subtract each row's maximum before exp")),
        ),
        question="看到一个 attention 的公式，能不能写出对应的 einsum？",
        forbidden=(
            "softmax",
            "sqrt",
            "√",
            "1e-6",
            "1e-06",
            "1e-12",
            "2e-7",
            "2.65",
            "row max",
            "maximum",
            "-inf",
            "triu",
            "tril",
            "upper triangle",
            "btd",
            "bhtd",
            "bsd",
            "key axis",
            "each row sums",
        ),
    ),
    _ex(
        "P2",
        "p2_training_loop",
        "P",
        3,
        N_("The twenty-line training loop"),
        kp(
            "first_loss",
            N_("train_step's loss of the initial model, against the grader's own forward"),
            P3_MUST,
            L_LINES,
        ),
        kp(
            "validation_perplexity",
            N_("train(config): validation perplexity on unseen text after a short run, and the first loss"),
            P3_MUST,
            L_LINES,
        ),
        kp("learning_rates", N_("lr_at on drawn schedules, and the lr at each optimizer.step()"), P3_MUST, L_SCHEDULE),
        kp(
            "amp_step",
            N_("under amp_dtype=bf16: the loss and the gradient against the course's loop; parameters' dtype"),
            P3_MUST,
            L_AMP,
        ),
        kp(
            "loss_value",
            N_("the loss on targets with ignored positions, against the course's loss"),
            P3_MUST,
            L_FLOAT_LOSS,
        ),
        fact("step_gradient", N_("the gradient optimizer.step() sees, and the reported norm"), P3_MUST, L_LOOP),
        kp(
            "grads_after_step",
            N_("each step's gradient alone, and the .grad fields after train_step"),
            P3_CONC,
            L_ACCUM,
        ),
        timeout_s=300,
        question="不用 Trainer，能不能从零写一个训练循环、在小数据集上训一个小 Transformer、并解释每一行为什么在那里？",
        forbidden=(
            "linearly",
            "linear warmup",
            "float logits",
            "clips",
            ".float()",
            "float()",
            "max_norm",
            "1.0)",
            "norm 1",
            "lambda",
            "zero_grad",
            "(step + 1)",
            "math.cos",
            "pi *",
            "betas",
            "0.95",
            "in this order",
            "9.6",
            "below 12",
            "~128",
            "4 layers",
            "n_embd 128",
            "cross_entropy(",
            "backward();",
        ),
    ),
    _ex(
        "P3",
        "p3_memory_estimate",
        "P",
        4,
        N_("Estimate the memory before the run"),
        kp(
            "state_blocks",
            N_("parameter, gradient and AdamW-state bytes against real tensors after a step"),
            P4_MUST,
            (L_BYTES_RULE, N_(" (here plain fp32: 4 + 4 + 8 bytes per parameter)")),
        ),
        kp(
            "activation_block",
            N_("activation bytes against the saved-for-backward tensors of a real step"),
            P4_MUST,
            (L_ACT_RULE, N_("; eager attention also saves (B, heads, T, T), the loss the (B*T, V) logits")),
        ),
        kp(
            "peak_block",
            N_("the peak against MemTracker's peak of a steady-state step on CPU"),
            P4_MUST,
            (
                L_ACT_RULE,
                N_("; the peak comes at the start of backward: weights, state and all activations alive at once"),
            ),
        ),
        kp(
            "cuda_peak",
            N_("the peak against torch.cuda.max_memory_allocated()"),
            P4_MUST,
            N_(
                "estimate before the run, max_memory_allocated() after: within 30% is a match — "
                "「跑前算、跑后 max_memory_allocated()，误差 30% 内算会算」"
            ),
            needs_gpu=True,
        ),
        fact(
            "course_llama3_8b",
            N_("full / LoRA / QLoRA GB from a config, on drawn configs and the course's 8B"),
            P4_MUST,
            (L_16, N_("; "), L_LORA_STATE),
        ),
        timeout_s=300,
        question="能不能算出一个 8B 模型全量微调要多少显存、为什么 LoRA 能放进一张卡？",
        allowed=("set_to_none",),  # the measured loop is shown as code
        forbidden=(
            "30pct",
            "30%",
            "4 + 4 + 8",
            "4 bytes per",
            "two fp32",
            "fp32 moments",
            "(B, heads, T, T)",
            "B*T, V",
            "(B*T",
            "start of backward",
            "always alive",
            "frees them",
            "16.7",
            "5.1",
            "r x (in",
            "in_features + out_features",
            "2 bytes per",
            "16 B x",
        ),
    ),
    _ex(
        "P4",
        "p4_lora_sft",
        "P",
        5,
        N_("A LoRA SFT on a real model"),
        fact(
            "data_path_labels",
            N_("the tokens and labels of the data path against the grader's own tokenisation"),
            P5_MUST,
            L_EOS,
        ),
        kp(
            "masked_fraction",
            N_("the fraction of label positions left out of the loss"),
            P5_MUST,
            N_("the prompt and the padding are no targets — 「只有 assistant 的几个 token 进入交叉熵」"),
        ),
        kp("label_at_eos", N_("the label at the end-of-sequence position"), P5_MUST, L_EOS_RULE),
        kp(
            "label_at_eos_when_pad_is_eos",
            N_("the label at the end-of-sequence position when the pad id is the EOS id"),
            P5_MUST,
            L_EOS_RULE,
        ),
        fact(
            "trainable_params_match_peft",
            N_("the LoRA model's trainable parameters and scaling against peft's for the course's configuration"),
            P5_MUST,
            L_LORA,
        ),
        kp(
            "answers_and_stops",
            N_("after 12 LoRA steps on a real model: held-out questions answered and stopped"),
            P5_MIS,
            L_EOS_RULE,
        ),
        timeout_s=600,
        call_timeout_s=60,
        question="能不能用 peft + trl 在一小时内跑起一个 LoRA SFT？卡住的时候能不能直接读源码找到原因？",
        forbidden=(
            "mask prompt",
            "eos kept",
            "r=16",
            "r = 16",
            "lora_alpha",
            "alpha=32",
            "alpha = 32",
            "all-linear",
            "target_modules=",
            "get_peft_model",
            "LoraConfig",
            "separately",
            "EOS label",
            "the EOS token itself",
            "85",
            "task_type",
            "2.0",
            "never by",
            "by position",
            "(id 0",
            "id 0",
            "sharpest",
            "never stopped",
            "pad_token = eos",
            "also occurs among the real tokens",
        ),
    ),
    _ex(
        "P5",
        "p5_profile_record",
        "P",
        6,
        N_("Read a profile, make a run reproducible"),
        kp(
            "reads_profiler_table",
            N_("top ops by time and the backward/forward ratio of a real profiler table"),
            P6_CONC,
            (N_("top ops by self time (children excluded), largest first; "), L_PROF),
        ),
        fact(
            "run_record",
            N_("the saved record's items and values against git, the data file and the interpreter"),
            P6_MUST,
            L_RECORD,
        ),
        kp(
            "seed_reproducible",
            N_("a 2-worker DataLoader: same seed twice, another seed, no repeated noise"),
            P6_MUST,
            (
                L_SEED,
                N_(
                    "; seed the DataLoader with torch.Generator().manual_seed(seed): it decides the order and each "
                    "worker's base seed, from which torch seeds every worker's random, NumPy and torch RNGs (a "
                    "worker_init_fn is needed only to re-seed other libraries, from torch.initial_seed())"
                ),
            ),
        ),
        timeout_s=300,
        question="不写 kernel，能不能解释一次训练为什么慢、一次推理为什么快不起来、一个 OOM "
        "从哪里来？三个月后能不能复现今天这次实验？",
        forbidden=(
            "commit",
            "run id",
            "data_version",
            "data version",
            "environment",
            "seven",
            "generator=",
            "manual_seed",
            "worker_init_fn",
            "initial_seed",
            "rev-parse",
            "safe.directory",
            "importlib",
            "2x",
            "~2",
            "about 2",
            "GEMM",
            "unless told it is safe",
            "told it is safe",
            "git refuses",
            "refuses such",
        ),
    ),
    # ---------------------------------------------------------------- X
    _ex(
        "X1",
        "x1_gil",
        "X",
        1,
        N_("Threads for CPU-bound Python"),
        kp(
            "threads_cpu_use",
            N_("threads: where the CPU time goes, and how many cores they use at once"),
            P1_MIS,
            L_GIL_RULE,
        ),
        kp(
            "parallel_cpu_use",
            N_("the other run: where the CPU time goes, and its cores against the threads'"),
            P1_MIS,
            L_GIL_RULE,
        ),
        timeout_s=180,
        question="预处理慢就开多线程",
        forbidden=(
            "no speedup",
            "speed up",
            "ThreadPoolExecutor",
            "multiprocessing.Pool",
            "Pool(",
            "one thread at a time",
            "bytecode",
            "in parallel",
            "releases",
            "1.3",
            "pickles",
            "chunksize",
            "processes",
            "multiprocessing",
            "Pool",
            "worker process",
            "child process",
            "its children",
            "i * i % 7",
            "no NumPy",
            "no C helpers",
            "closed form",
            "run_processes",
        ),
    ),
    _ex(
        "X2",
        "x2_silent_broadcast",
        "X",
        2,
        N_("A loss on mismatched shapes"),
        kp(
            "naive_loss",
            N_("the naive loss on (N,) and (N, 1): its shape and value against torch's"),
            P2_MIS,
            (L_BROADCAST, N_(": (3,) - (3, 1) runs and gives (3, 3), no error, a wrong number")),
        ),
        kp(
            "safe_loss",
            N_("the safe loss on differing and on equal shapes, against torch's mean squared error"),
            P2_MIS,
            N_("assert shapes at the key places, above all before the loss — 「关键处 assert 形状」"),
        ),
        question="形状错了会报错",
        forbidden=(
            "broadcast",
            "(N, N)",
            "(3, 3)",
            "silently",
            "no error",
            "wrong number",
            "same number of elements",
            "** 2",
            "**2",
            ".mean()",
            "mse_loss",
            "pred - target",
            "pred.shape != target.shape",
            "pred.shape",
            "assert",
        ),
    ),
    _ex(
        "X3",
        "x3_autocast_dtypes",
        "X",
        4,
        N_("What autocast does to a layer's dtypes"),
        kp(
            "weight_dtype",
            N_("the layer's weight after a forward under CPU autocast(bfloat16)"),
            P4_MIS,
            N_(
                "autocast does not change how parameters are stored: they stay fp32; "
                "the matmul uses a temporary bf16 copy"
            ),
        ),
        kp(
            "logits_dtype",
            N_("a Linear's output under autocast, against the grader's own autocast run"),
            P4_MIS,
            N_("autocast runs matmuls in bf16: the Linear's output is bf16"),
        ),
        kp(
            "loss_dtype",
            N_("the loss under autocast"),
            P4_MIS,
            N_("reductions such as softmax, norms and the loss stay fp32 under autocast"),
        ),
        question="autocast 把参数变成 bf16、显存减半",
        forbidden=(
            "outputs bf16",
            "loss fp32",
            "stays fp32",
            "stay fp32",
            "remain fp32",
            "does not change",
            "temporary",
            "reduction",
            "bf16 output",
            "returns a bf16",
            "master weights",
        ),
    ),
    _ex(
        "X4",
        "x4_decode_bytes",
        "X",
        6,
        N_("Why decode is slow"),
        fact(
            "decode_floor",
            N_("the decode floor against real models' bf16 weight bytes, and the course's 8B"),
            P6_MUST,
            L_DECODE,
        ),
        fact(
            "step_time_vs_batch",
            N_("the roofline step time on drawn sizes, and how it changes with the batch on the course's 8B"),
            P6_MIS,
            L_RIDGE,
        ),
        question="decode 慢是 GPU 算不过来",
        forbidden=(
            "over bandwidth",
            "not flops",
            "ridge",
            "max(",
            "read once",
            "every weight",
            "4.8",
            "0.3 ms",
            "batch 64",
            "costs no",
            "~1 FLOP",
            "intensity",
            "moving the weights",
            "memory-bound",
            "compute-bound",
        ),
    ),
    _ex(
        "X5",
        "x5_loss_falls_never_stops",
        "X",
        5,
        N_("The loss falls: did the SFT work?"),
        kp(
            "loss_curve",
            N_("with the end token masked: the SFT loss on SmolLM2, and loss_fell on it and on drawn curves"),
            P5_MIS,
            N_(
                "the loss falls either way: a falling loss is necessary, not sufficient — 「要看生成输出，不只看 loss」"
            ),
        ),
        kp(
            "generations",
            N_(
                "with the end token masked: held-out capitals answered, and whether the model stops; "
                "stops() reads generations as the grader does"
            ),
            P5_MIS,
            L_EOS,
        ),
        timeout_s=600,
        call_timeout_s=60,
        question="loss 降下来 SFT 就成了",
        forbidden=(
            "half the",
            "mean of the last",
            "never stops",
            "still falls",
            "never stop",
            "does not stop",
            "5.3",
            "1.7",
            "Paris",
            "Rome",
            "enough times",
            "often enough",
        ),
    ),
)
BY_ID: dict[str, Exercise] = {ex.id: ex for ex in CATALOG}
BY_MODULE: dict[str, Exercise] = {ex.module: ex for ex in CATALOG}


def states_withheld(ex: Exercise, *texts: str | None) -> list[str]:
    """What a failure's text (hint, lesson, named mistake) would give away before its reveal: an item
    of the exercise's ``forbidden`` list, or of set R's (the facts R's recall key points withhold,
    whichever report prints them)."""
    text = " ".join(t for t in texts if t)
    items = ex.gives_away(text)
    if ex.id != "R":
        flat = " ".join(text.split())
        items += [item for item in BY_ID["R"].forbidden if item_pattern(item).search(flat)]
    return items


def get(exercise_id: str) -> Exercise:
    """The exercise with this id (case-insensitive); KeyError with the known ids otherwise."""
    key = exercise_id.strip().upper()
    if key not in BY_ID:
        raise KeyError(_("unknown exercise {id!r}; known: {known}", id=exercise_id, known=", ".join(BY_ID)))
    return BY_ID[key]


def available() -> list[Exercise]:
    return [ex for ex in CATALOG if ex.available]
