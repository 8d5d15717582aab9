"""Set R: recall of the must-remember facts ("必记", part 7 §二), one item per R key point of the
catalog. The course has no R questions of its own: the wording is ours, the feedback quotes the
must-remember line verbatim. Where a fact is a formula, the item applies it to drawn numbers."""

from __future__ import annotations

from grader.given import recall_topics as topic
from grader.i18n import N_
from grader.quiz import course_text, truth as T
from grader.quiz.answers import EXACT, Choice, Einsum, MultiSelect, Number, Option, Tolerance
from grader.quiz.bank import PART_OPTIONS, Part, Question, named
from grader.quiz.bank.fmt import g, mr

STATE_OPTIONS = [
    named("weights", "bf16 weights", "bf16 权重"),
    named("grads", "bf16 gradients", "bf16 梯度"),
    named("master", "fp32 master weights", "fp32 主权重"),
    named("adam_m", "AdamW's first moment m (fp32)", "AdamW 一阶矩 m（fp32）"),
    named("adam_v", "AdamW's second moment v (fp32)", "AdamW 二阶矩 v（fp32）"),
]
STATE_DISTRACTORS = [
    Option("activations", "the activations of the batch", "这个 batch 的激活"),
    Option("fp32_grads", "an extra fp32 copy of the gradients", "多一份 fp32 梯度"),
    Option("kv_cache", "the KV cache", "KV cache"),
    Option("optimizer_bf16", "a bf16 copy of the optimizer state", "一份 bf16 的优化器状态"),
    Option("loss_scale", "the fp16 loss scale", "fp16 的 loss scale"),
]


def _state_parts(params):
    have = T.state_bytes_per_param()
    return frozenset(k for k in T.TRAINABLE_PARTS if have.get(k, 0) > 0)


def _state_options(params):
    return MultiSelect(STATE_OPTIONS + [o for o in STATE_DISTRACTORS if o.key in params["distractors"]])


def _draw_state(rng):
    return {"distractors": rng.sample([o.key for o in STATE_DISTRACTORS], 3)}


def _draw_gpu(rng):
    return {
        "peak_tflops": rng.choice([120, 197, 312, 362, 495, 708, 989, 1307, 1979, 2250]) * rng.choice([1, 1, 0.9, 1.1]),
        "bw_tb_s": round(rng.uniform(0.8, 8.0), 2),
    }


def _gpu_view(p):
    """The numbers the question shows; the working and the right answer use these, not the draw's digits."""
    return {"peak": g(p["peak_tflops"], 4), "bw": g(p["bw_tb_s"])}


def _draw_decode(rng):
    return {
        "n_b": round(rng.uniform(0.5, 72), 1),
        "dtype": rng.choice(["bf16", "int8", "int4"]),
        "bw_tb_s": round(rng.uniform(0.8, 5.3), 2),
    }


BPP = {"bf16": 2, "int8": 1, "int4": 0.5}


def _kv_config(p):
    return {
        "vocab_size": 16,
        "hidden_size": p["heads"] * p["head_dim"],
        "intermediate_size": 16,
        "num_hidden_layers": p["layers"],
        "num_attention_heads": p["heads"],
        "num_key_value_heads": p["kv"],
        "head_dim": p["head_dim"],
        "tie_word_embeddings": False,
        "max_position_embeddings": 64,
    }


def _draw_kv(rng):
    kv = rng.choice([1, 2, 4, 8, 16])
    return {
        "layers": rng.choice([12, 16, 24, 28, 32, 40, 48, 60, 80]),
        "kv": kv,
        "heads": kv * rng.choice([1, 2, 4, 8]) if kv < 16 else 16 * rng.choice([1, 2]),
        "head_dim": rng.choice([64, 96, 128]),
    }


TOPICS_ZH = topic.TOPICS_ZH  # grader/given/recall_topics.py's topics, in Chinese

RECORD_OPTIONS = [
    named("run id", "run id", "run id"),
    named("commit", "git commit", "commit"),
    named("config", "config file", "配置文件"),
    named("data version", "data version", "数据版本"),
    named("seed", "seed", "seed"),
    named("environment", "environment (pip freeze)", "环境（pip freeze）"),
    named("metrics", "metrics", "指标"),
]
RECORD_DISTRACTORS = [
    Option("author", "the author's name", "作者姓名"),
    Option("screenshot", "a screenshot of the loss curve", "loss 曲线的截图"),
    Option("temperature", "the GPU's temperature", "GPU 温度"),
    Option("paper", "the date of the paper", "论文的日期"),
    Option("chat", "the team's chat channel", "团队的聊天频道"),
    Option("lines", "lines of code changed", "改动的行数"),
]


def _record_truth(params):
    return frozenset(
        o.key
        for o in RECORD_OPTIONS + RECORD_DISTRACTORS
        if o.key in params["options"] and T.record_item(o.en) is not None
    )


def _einsum_truth(which):
    def truth(params):
        q = "bhtd" if params["with_heads"] else "btd"
        if which == "qk":  # scores = Q @ K^T: contract d, keep the query axis then the key axis
            spec = f"{q},{q[:-2]}sd->{q[:-1]}s"
        else:  # out = P @ V: contract the key axis s
            spec = f"{q[:-1]}s,{q[:-2]}sd->{q}"
        if not T.einsum_right(spec, which, params["with_heads"]):
            raise RuntimeError(f"quiz: the shown einsum {spec!r} does not compute {which}")
        return spec

    return truth


# which: (the product, what attention calls it (en, zh), the two operands and the result, as (name, axes))
EINSUM = {
    "qk": ("QK^T", "scores", "分数", ("Q", "T, d"), ("K", "S, d"), "T, S"),
    "pv": ("PV", "output", "输出", ("P", "T, S"), ("V", "S, d"), "T, d"),
}


EINSUM_TITLES = {"qk": N_("einsum for QK^T"), "pv": N_("einsum for PV")}


def _einsum_question(which):
    product, en, zh, (a, a_axes), (b, b_axes), out_axes = EINSUM[which]

    def view(p):
        lead = "B, H, " if p["with_heads"] else "B, "
        return {"a": f"({lead}{a_axes})", "b": f"({lead}{b_axes})", "out": f"({lead}{out_axes})"}

    return Question(
        f"R.einsum_{which}",
        "R",
        EINSUM_TITLES[which],
        f"用 np.einsum 写 attention 的{zh} \\({product}\\)：{a} 的形状 {{a}}，{b} 的形状 {{b}}，结果 {{out}}。"
        f"下标串怎么写？",
        f"Write attention's {en} {product} with np.einsum: {a} has shape {{a}}, {b} {{b}}, the result {{out}}. What "
        f"are "
        "the subscripts?",
        lambda rng: {"with_heads": rng.random() < 0.5},
        [Part("spec", "Subscripts?", "下标串？", lambda p: Einsum(which, p["with_heads"]), _einsum_truth(which))],
        mr(2, 1),
        'QK^T is "btd,bsd->bts", PV is "bts,bsd->btd"; with heads "bhtd,bhsd->bhts".',
        ("part 2, must-remember: einsum for attention", "第二篇“必记”：attention 的 einsum"),
        view=view,
    )


QUESTIONS = [
    Question(
        "R.bytes_per_param",
        "R",
        N_("Bytes per trainable parameter"),
        "bf16 混合精度 + AdamW 训练时，每个可训练参数在显存里占多少字节？分别是哪几份？",
        "Training with bf16 mixed precision and AdamW: how many bytes of GPU memory does each trainable "
        "parameter take, and what are they?",
        _draw_state,
        [
            Part(
                "total",
                "Bytes per trainable parameter?",
                "每个可训练参数多少字节？",
                Number("bytes", "B", EXACT),
                lambda p: T.bytes_per_trainable_param(),
                how=lambda p, t: (
                    "measured on the real tensors of a small model after one AdamW step",
                    "在一个小模型做完一步 AdamW 后的真实张量上量得",
                ),
            ),
            Part("pieces", "Which pieces make it up?", "由哪几份组成？", _state_options, _state_parts),
        ],
        mr(4, 0),
        "16 bytes per trainable parameter = bf16 weight 2 + bf16 gradient 2 + fp32 master weight 4 + "
        "AdamW's two moments 4 + 4; SGD without momentum is 8, an 8-bit optimizer about 10; the gradient + state "
        "part is 14 bytes.",
        ("part 4, must-remember: 16 bytes = 2 + 2 + 4 + 4 + 4", "第四篇“必记”：16 字节 = 2 + 2 + 4 + 4 + 4"),
    ),
    Question(
        "R.ridge_point",
        "R",
        N_("The ridge point"),
        "一张卡 bf16 稠密算力 {peak} TFLOPS、显存带宽 {bw} TB/s。它的 ridge point 是多少 FLOP/字节？",
        "A GPU does {peak} TFLOPS of dense bf16 compute and has {bw} TB/s of memory bandwidth. What is its "
        "ridge point, in FLOP per byte?",
        _draw_gpu,
        [
            Part(
                "ridge",
                "Ridge point?",
                "ridge point？",
                Number("flop_per_byte", "FLOP/byte", Tolerance(rel=0.03)),
                lambda p: T.ridge(float(_gpu_view(p)["peak"]) * 1e12, float(_gpu_view(p)["bw"]) * 1e12),
                how=lambda p, t: (f"{_gpu_view(p)['peak']}e12 / {_gpu_view(p)['bw']}e12",) * 2,
            )
        ],
        mr(6, 0),
        "ridge = 989e12 / 3.35e12 ≈ 295 FLOP/byte; decode intensity 2N / 2N = 1, at batch B it is B.",
        ("part 6, must-remember: ridge = peak / bandwidth", "第六篇“必记”：ridge = 算力 / 带宽"),
        view=_gpu_view,
    ),
    Question(
        "R.decode_floor",
        "R",
        N_("The decode floor"),
        "一个 {n}B 参数的模型，权重用 {dtype}，部署在显存带宽 {bw} TB/s 的卡上。batch 1 decode 每个 token "
        "的时间下限约多少？",
        "A {n}B-parameter model with {dtype} weights runs on a GPU with {bw} TB/s of memory bandwidth. What is the "
        "floor of the time per token for batch-1 decode?",
        _draw_decode,
        [
            Part(
                "floor",
                "Time per token?",
                "每 token 时间下限？",
                Number("time", "ms", Tolerance(rel=0.03)),
                lambda p: T.decode_floor_s(p["n_b"] * 1e9, BPP[p["dtype"]], p["bw_tb_s"] * 1e12),
                how=lambda p, t: (
                    f"{p['n_b']}e9 x {BPP[p['dtype']]} bytes / {p['bw_tb_s']} TB/s",
                    f"{p['n_b']}e9 × {BPP[p['dtype']]} 字节 / {p['bw_tb_s']} TB/s",
                ),
            )
        ],
        mr(6, 1),
        "decode floor 16.06 GB / 3.35 TB/s ≈ 4.8 ms -> 209 tokens/s; at batch 128 still 4.8 ms, 26,700 "
        "tokens/s; at batch 512 the compute time (8.3 ms) exceeds the bandwidth time: compute-bound.",
        (
            "part 6, must-remember: decode floor = weight bytes / bandwidth",
            "第六篇“必记”：decode 下限 = 权重字节 / 带宽",
        ),
        view=lambda p: {"n": g(p["n_b"]), "dtype": p["dtype"], "bw": g(p["bw_tb_s"])},
    ),
    Question(
        "R.kv_cache_per_token",
        "R",
        N_("KV-cache bytes per token"),
        "一个模型 {layers} 层、{heads} 个注意力头、{kv} 个 KV 头、head_dim {head_dim}。bf16 推理时 KV cache 每个 token "
        "占多少字节？",
        "A model has {layers} layers, {heads} attention heads, {kv} KV heads and head_dim {head_dim}. In bf16 "
        "inference, how many bytes of KV cache does each token take?",
        _draw_kv,
        [
            Part(
                "per_token",
                "KV-cache bytes per token?",
                "每 token 的 KV cache 字节数？",
                Number("bytes", "B", Tolerance(rel=0.01), also=("KB", "KiB")),
                lambda p: T.kv_cache_bytes(_kv_config(p), 1, 1, "bfloat16"),
                how=lambda p, t: (
                    "the K and V tensors of a real transformers DynamicCache after a forward",
                    "真实 transformers DynamicCache 前向后的 K、V 张量",
                ),
            )
        ],
        mr(6, 3),
        "KV cache per token per layer: 2 x n_kv x d_head numbers: Llama-3-8B 2 x 8 x 128 x 32 x 2 = 131 "
        "KB/token, 1 GB for an 8K context, 64 GB for 64 concurrent ones; GQA's 8 KV heads cut it to 1/4.",
        ("part 6, must-remember: KV cache = 2 x n_kv x d_head x layers x bytes", "第六篇“必记”：KV cache 公式"),
    ),
    Question(
        "R.first_step_loss",
        "R",
        N_("The first-step loss"),
        "词表大小 V = {V} 的语言模型从头初始化，第一步的 loss 应约多少？",
        "A language model with a vocabulary of V = {V} is initialised from scratch. About what should its "
        "first-step loss be?",
        lambda rng: {
            "V": rng.choice([128, 256, 1300, 32000, 50257, 65536, 128256, 151936, 256000, rng.randint(500, 250_000)])
        },
        [
            Part(
                "loss",
                "First-step loss (nats)?",
                "第一步 loss（自然对数）？",
                Number("nats", "nats", Tolerance(abs=0.05)),
                lambda p: T.uniform_loss(p["V"]),
                how=lambda p, t: (
                    "cross-entropy of all-zero logits (a uniform prediction)",
                    "全零 logits（均匀预测）的交叉熵",
                ),
            )
        ],
        mr(2, 4),
        "The first-step loss should be ln V (7.2 in the figure means V ≈ 1300); 5 seeds' means differ by "
        "0.30, about 1.7 standard deviations (0.179 between seeds): only bands that stop overlapping late count "
        "as a difference.",
        ("part 2, must-remember: first loss ≈ ln V", "第二篇“必记”：第一步 loss ≈ ln V"),
    ),
    Question(
        "R.ignore_index",
        "R",
        N_("The label ignore index"),
        "F.cross_entropy 默认跳过标签等于哪个值的位置（SFT 的 loss mask 就靠它）？",
        "Which label value does F.cross_entropy skip by default (the SFT loss mask relies on it)?",
        lambda rng: {},
        [Part("value", "The value?", "这个值？", Number("number", "", EXACT), lambda p: T.ignore_index())],
        mr(3, 1),
        "The twenty lines, line by line: autocast(bfloat16) is mixed precision, view(-1, V) the reshape, "
        ".float() the softmax's numerics, ignore_index=-100 the SFT loss mask, clip_grad_norm_(1.0) gradient "
        "clipping, zero_grad(set_to_none=True) saves a memory write, .item() every 10 steps because it syncs the GPU.",
        ("part 3, must-remember: the twenty lines", "第三篇“必记”：二十行里的对应"),
    ),
    *(_einsum_question(which) for which in EINSUM),
    Question(
        "R.ci95",
        "R",
        N_("ci95 of an accuracy"),
        "一个 {n} 道题的评测，准确率 {p}。它的 95% 置信区间半宽是多少？",
        "An evaluation of {n} questions scores an accuracy of {p}. What is the half-width of its 95% confidence "
        "interval?",
        lambda rng: {
            "n": rng.choice([50, 80, 100, 200, 300, 530, 1000, 2000, rng.randint(40, 5000)]),
            "p": round(rng.uniform(0.2, 0.9), 2),
        },
        [
            Part(
                "half_width",
                "Half-width?",
                "半宽？",
                Number("fraction", "%", Tolerance(abs=0.002)),  # the accuracy is stated as a fraction (0.63)
                lambda p: T.ci95_half_width(p["p"], p["n"]),
                how=lambda p, t: (
                    f"1.96 x sqrt({p['p']} x {1 - p['p']:.2f} / {p['n']})",
                    f"1.96 × sqrt({p['p']} × {1 - p['p']:.2f} / {p['n']})",
                ),
            )
        ],
        mr(2, 3),
        "ci95 = 1.96 sqrt(p̂(1 − p̂)/n): on a 530-question eval, algebra's +7.5 beats ±5.8 and is "
        "credible; combinatorics' +5.0 inside ±10.9 cannot be told apart: 80 questions are not enough.",
        ("part 2, must-remember: ci95", "第二篇“必记”：ci95"),
    ),
    Question(
        "R.thread_speedup",
        "R",
        N_("Threads and CPU-bound Python"),
        "一段 CPU 密集的纯 Python 预处理，串行要 {t} s。在 {cores} 核的机器上开 {threads} 个线程，"
        "相对串行的加速比约多少？",
        "A CPU-bound pure-Python preprocessing step takes {t} s serially. With {threads} threads on a {cores}-core "
        "machine, about what speed-up over serial do you get?",
        lambda rng: {
            "t": round(rng.uniform(0.3, 30), 2),
            "threads": rng.choice([2, 4, 8, 16, 32]),
            "cores": rng.choice([4, 8, 16, 32, 64]),
        },
        [
            Part(
                "speedup",
                "Speed-up?",
                "加速比？",
                lambda p: Number(
                    "speedup", "x", Tolerance(low=T.thread_speedup_range()[0], high=T.thread_speedup_range()[1])
                ),
                lambda p: 1.0,
            )
        ],
        mr(1, 1),
        "100,000 rows of CPU-bound preprocessing: serial 0.46 s, 8 threads 0.46 s (1.0x), 8 processes 0.15 s "
        "(3.1x); the gap is process start-up and pickling, chunksize is the knob that matters most.",
        ("part 1, must-remember: the GIL", "第一篇“必记”：GIL"),
    ),
    Question(
        "R.part_topics",
        "R",
        N_("Which part covers which topic"),
        "“{topic_zh}”是哪一篇讲的？",
        'Which part of the series teaches "{topic}"?',
        lambda rng: {"topic": rng.choice(topic.TOPICS)},
        [
            Part(
                "part",
                "Which part?",
                "哪一篇？",
                Choice(PART_OPTIONS),
                lambda p: tuple(map(str, T.part_topics()[p["topic"]])),
                shuffle=False,
            )
        ],
        course_text.PARTS_SENTENCE,
        "Part 1 covers the bit of Python syntax in training code and streaming a corpus, "
        "part 2 builds shape intuition on NumPy and reads results with Pandas and Matplotlib, part 3 writes the "
        "twenty-line training loop, part 4 works out how much memory that loop needs, part 5 assembles a real LoRA "
        "SFT from Hugging Face's six libraries, part 6 explains why things are fast or slow and how to keep an "
        "experiment reproducible three months later.",
        (
            'part 7, its opening (what the six parts cover); then "一、总览", the table of the six parts',
            "第 7 篇开头（六篇各讲什么）；再看“一、总览：系列回答的问题与主线”的表",
        ),
        view=lambda p: {"topic_zh": TOPICS_ZH[p["topic"]]},
    ),
    Question(
        "R.run_record_items",
        "R",
        N_("The run record"),
        "一次实验的最小记录是一行。下面哪些项必须在这一行里？",
        "The minimal record of an experiment is one line. Which of these items must it hold?",
        lambda rng: {"options": [o.key for o in RECORD_OPTIONS] + rng.sample([o.key for o in RECORD_DISTRACTORS], 3)},
        [
            Part(
                "items",
                "Which items?",
                "哪些项？",
                lambda p: MultiSelect([o for o in RECORD_OPTIONS + RECORD_DISTRACTORS if o.key in p["options"]]),
                _record_truth,
            )
        ],
        mr(6, 5),
        "The seven items: run id · commit · config file · data version · seed · environment · metrics; the "
        "same seed twice gives 3.237898 both times, seed 1 differs by 0.1404.",
        ("part 6, must-remember: the seven-item record", "第六篇“必记”：七项记录"),
    ),
]
