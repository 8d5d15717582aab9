"""Set A: judgement and calculation (part 7, §五.A), the course's ten questions with drawn numbers."""

from __future__ import annotations

from grader.i18n import N_
from grader.quiz import course_text as C, truth as T
from grader.quiz.answers import BroadcastShape, Choice, Number, Option, Shape, Tolerance, YesNo
from grader.quiz.bank import Part, Question
from grader.quiz.bank.fmt import activations_how, ctx, g, gb, mb, millions

GB = 1e9
ZH_COUNT = {2: "两", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七"}
EN_COUNT = {2: "twice", 3: "three times", 4: "four times", 5: "five times", 6: "six times", 7: "seven times"}


def _shape(s) -> str:
    s = tuple(s)
    return f"({s[0]},)" if len(s) == 1 else str(s)


# ------------------------------------------------------------------ A1
def _draw_a1(rng):
    file_gb = rng.choice([1, 2, 4, 6, 8, 12, 16, 20, 24, 32, 50])
    ratio = rng.choice([1.5, 2, 2.5, 3, 3.5] + [9, 10, 12, 16, 20])  # clear of the ~5x factor's edge
    ram = rng.choice(
        [
            r
            for r in (4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
            if abs(r / file_gb - ratio) / ratio < 0.35
        ]
        or [round(file_gb * ratio)]
    )
    factor = T.list_peak_factor()
    if 1 / 1.5 < ram / (file_gb * factor) < 1.5:  # too close to call: the nearest clear size
        ram = round(file_gb * factor * (2.0 if ratio > 5 else 0.5))
    return {"file_gb": file_gb, "ram_gb": ram}


GENERATOR_OPTIONS = [
    Option(
        "independent",
        "it does not depend on the file size: one record plus the hash set for dedupe",
        "与文件大小无关：一条记录加去重的哈希集合",
        also=("tens of MB", "几十 MB"),  # the course's answer: "…只有一条记录加去重的哈希集合，几十 MB"
    ),
    Option("same", "about the file size", "约等于文件大小"),
    Option("list", "about as much as the list", "和读成 list 差不多"),
    Option("half", "about half the file size", "约文件大小的一半"),
]

A1 = Question(
    "A1",
    "A",
    N_("Streaming JSONL"),
    "一份 {file_gb} GB 的 JSONL，机器内存 {ram_gb} GB。json.loads 后读成 list 能不能装下？用生成器峰值大约多少？",
    "A JSONL file of {file_gb} GB, a machine with {ram_gb} GB of RAM. Does it fit in memory read into a list "
    "after json.loads? About what is the peak with a generator?",
    _draw_a1,
    [
        Part(
            "list_gb",
            "Memory needed to read it into a list?",
            "读成 list 大约要多少内存？",
            Number("bytes", "GB", Tolerance(rel=0.3)),
            lambda p: p["file_gb"] * GB * T.list_peak_factor(),
            how=lambda p, t: (
                f"{p['file_gb']} GB x {T.list_peak_factor():.2f} (the list's peak factor, measured with "
                "tracemalloc on a generated file)",
                f"{p['file_gb']} GB × {T.list_peak_factor():.2f}（在生成的文件上用 tracemalloc 实测的 list 峰值倍数）",
            ),
        ),
        Part(
            "fits",
            "Does the list fit in {ram_gb} GB?",
            "{ram_gb} GB 装得下吗？",
            YesNo(),
            lambda p: p["file_gb"] * T.list_peak_factor() <= p["ram_gb"],
        ),
        Part(
            "generator",
            "The generator pipeline's peak?",
            "用生成器，峰值大约多少？",
            Choice(GENERATOR_OPTIONS),
            lambda p: "list" if T.streaming_peak_grows() else "independent",
            how=lambda p, t: (
                "a line-by-line pass over a 1 MB and an 8 MB file, measured with tracemalloc",
                "对 1 MB 与 8 MB 文件逐行过一遍，用 tracemalloc 实测",
            ),
        ),
    ],
    C.ANSWERS["A1"],
    "At the 5x measured in part 1 (5.3x), the list needs about 40 GB: it does not fit; a generator's peak does "
    "not depend on the file size, just one record plus the hash set for dedupe: tens of MB.",
    (
        "part 1, must-remember: 19.4 MB -> list 102.9 MB (5.3x), generator 11.5 MB",
        "第一篇“必记”：19.4 MB → list 102.9 MB（5.3 倍），生成器 11.5 MB",
    ),
    course={"file_gb": 8, "ram_gb": 32},
)

# ------------------------------------------------------------------ A2
A2_DTYPES = ["bfloat16", "float16", "float32", "float64", "int8"]


def _draw_a2(rng):
    return {
        "shape": [
            rng.choice([2, 4, 8, 16, 24, 32, 64]),
            rng.choice([128, 256, 512, 1000, 1024, 2048]),
            rng.choice([64, 128, 768, 1024, 2048, 4096]),
        ],
        "dtype": rng.choice(A2_DTYPES),
        "k": rng.choice([1, 1, 2, 3, 4]),
    }


def _index(k, keep):
    return (slice(None), slice(-k, None)) if keep else (slice(None), -k)


A2 = Question(
    "A2",
    "A",
    N_("nbytes and the shape after indexing"),
    "x = torch.zeros({d0}, {d1}, {d2}, dtype=torch.{dtype})：x.nbytes 多少？x[:, -{k}] 与 x[:, -{k}:] 各是什么形状？",
    "x = torch.zeros({d0}, {d1}, {d2}, dtype=torch.{dtype}): what is x.nbytes? What are the shapes of x[:, -{k}] "
    "and x[:, -{k}:]?",
    _draw_a2,
    [
        Part(
            "nbytes",
            "x.nbytes?",
            "x.nbytes？",
            Number("bytes", "MiB", Tolerance(rel=0.005), also=("MB", "B")),
            lambda p: T.meta_nbytes(tuple(p["shape"]), p["dtype"]),
            how=lambda p, t: (
                f"torch.empty({tuple(p['shape'])}, dtype=torch.{p['dtype']}, device='meta').nbytes",
                f"torch.empty({tuple(p['shape'])}, dtype=torch.{p['dtype']}, device='meta').nbytes",
            ),
        ),
        Part(
            "int_index",
            "Shape of x[:, -{k}]?",
            "x[:, -{k}] 的形状？",
            Shape(),
            lambda p: T.meta_index_shape(tuple(p["shape"]), _index(p["k"], False)),
        ),
        Part(
            "slice",
            "Shape of x[:, -{k}:]?",
            "x[:, -{k}:] 的形状？",
            Shape(),
            lambda p: T.meta_index_shape(tuple(p["shape"]), _index(p["k"], True)),
        ),
    ],
    C.ANSWERS["A2"],
    "16 x 512 x 1024 x 2 = 16 MiB (bf16 is 2 bytes per element); x[:, -1], an integer index, removes a dimension: "
    "(16, 1024); x[:, -1:], a slice, keeps it: (16, 1, 1024).",
    (
        "part 2, §ndarray: nbytes; an integer index drops a dim, a slice keeps it",
        "第二篇：nbytes；整数索引消灭一维、切片保留一维",
    ),
    course={"shape": [16, 512, 1024], "dtype": "bfloat16", "k": 1},
    view=lambda p: {"d0": p["shape"][0], "d1": p["shape"][1], "d2": p["shape"][2]},
)


# ------------------------------------------------------------------ A3
def _draw_a3(rng):
    n = rng.randint(3, 4)
    full = [rng.choice([2, 3, 4, 5, 8, 16, 32, 64]) for _ in range(n)]
    a = list(full)
    a[rng.randrange(0, n - 1)] = 1  # a 1 that the other side stretches
    b = list(full[rng.randint(1, 2) :])
    if len(b) > 1 and rng.random() < 0.4:
        b[rng.randrange(0, len(b) - 1)] = 1
    if rng.random() < 0.3:  # one aligned dimension differs and neither side is 1
        i = rng.randrange(1, len(b) + 1)
        x = a[-i] if a[-i] != 1 else b[-i]
        b[-i] = rng.choice([v for v in (2, 3, 5, 6, 7, 12) if v != x])
        a[-i] = x if x != 1 else 4
    pair = (a, b) if rng.random() < 0.7 else (b, a)
    return {"a": pair[0], "b": pair[1]}


A3 = Question(
    "A3",
    "A",
    N_("Broadcasting"),
    "{a_text} + {b_text} 能广播吗？结果什么形状？",
    "{a_text} + {b_text}: does it broadcast? What is the result's shape?",
    _draw_a3,
    [
        Part("can", "Does it broadcast?", "能广播吗？", YesNo(), lambda p: T.broadcast(p["a"], p["b"]) is not None),
        Part(
            "shape",
            "The result's shape?",
            "结果什么形状？",
            BroadcastShape(),
            lambda p: T.broadcast(p["a"], p["b"]),
            when=lambda p: T.broadcast(p["a"], p["b"]) is not None,
            how=lambda p, t: ("np.broadcast_shapes", "np.broadcast_shapes"),
        ),
    ],
    C.ANSWERS["A3"],
    "Yes. Align from the right: 64 against 64, equal; 1 against 16, the 1 is stretched to 16; 8 against nothing, "
    'counted as 1. Result (8, 16, 64): note that it quietly gains a dimension, the classic "runs but wrong".',
    ("part 2, must-remember: broadcasting's three rules", "第二篇“必记”：广播三条规则"),
    course={"a": [8, 1, 64], "b": [16, 64]},
    view=lambda p: {"a_text": _shape(p["a"]), "b_text": _shape(p["b"])},
)


# ------------------------------------------------------------------ A4
def _draw_a4(rng):
    while True:
        w, x = rng.choice([-4, -3, -2, -1, 1, 2, 3, 4, 5, 0.5, 1.5, 2.5]), rng.choice([-3, -2, -1, 1, 2, 3, 4, 0.5])
        if w * x != 1:
            return {"w": w, "x": x, "k": rng.randint(2, 7)}


A4 = Question(
    "A4",
    "A",
    N_("backward() accumulates"),
    "第三篇的手算例子 \\(w = {w}\\)、\\(x = {x}\\)、\\(L = (wx - 1)^2\\)，每次重新前向、连续 backward() {k_zh}次而不 "
    "zero_grad，w.grad 是多少？",
    "Part 3's worked example with w = {w}, x = {x}, L = (wx - 1)^2: a fresh forward each time, backward() called "
    "{k_en} in a row without zero_grad. What is w.grad?",
    _draw_a4,
    [
        Part(
            "grad",
            "w.grad?",
            "w.grad？",
            Number("number", "", Tolerance(rel=1e-4, abs=1e-6)),
            lambda p: T.grad_after_k_backwards(p["w"], p["x"], p["k"]),
            how=lambda p, t: (
                f"real autograd: {p['k']} backward calls of (w x - 1)^2 at w={p['w']}, x={p['x']}",
                f"真实 autograd：在 w={p['w']}、x={p['x']} 处对 (wx − 1)^2 backward {p['k']} 次",
            ),
        )
    ],
    C.ANSWERS["A4"],
    "One gradient is 2(wx - 1) x = 20; accumulated three times it is 60: autograd accumulates, which is why "
    "gradient accumulation needs no extra code.",
    ("part 3, §Autograd: backward() accumulates into .grad", "第三篇：backward() 累加到 .grad"),
    course={"w": 3, "x": 2, "k": 3},
    view=lambda p: {"w": g(p["w"]), "x": g(p["x"]), "k_zh": ZH_COUNT[p["k"]], "k_en": EN_COUNT[p["k"]]},
)

# ------------------------------------------------------------------ A5
A5_MODELS = {
    "Qwen2.5-0.5B": 151936,
    "Llama-3-8B": 128256,
    "GPT-2": 50257,
    "Llama-2-7B": 32000,
    "Mistral-7B-v0.3": 32768,
    "Gemma-2-2B": 256000,
}


def _draw_a5(rng):
    import math

    model = rng.choice(sorted(A5_MODELS))
    lnv = math.log(A5_MODELS[model])
    kind = "too_high" if rng.random() < 0.6 else "ok"  # the verdict is how the loss was drawn
    loss = round(lnv + (rng.uniform(1.5, 5.0) if kind == "too_high" else rng.uniform(-0.4, 0.4)), 1)
    return {"model": model, "V": A5_MODELS[model], "loss": loss, "kind": kind}


VERDICT_OPTIONS = [
    Option("ok", "about right: the model starts out predicting uniformly", "基本正常：模型一开始近似均匀预测"),
    Option(
        "too_high",
        "clearly too high: the initial logits are too large, check the output layer's init",
        "明显偏高：初始 logits 太大，检查输出层初始化",
    ),
    Option("too_low", "suspiciously low: the targets may leak into the inputs", "低得可疑：目标可能漏进了输入"),
    Option("lr", "the learning rate is too high", "学习率太大"),
]

A5 = Question(
    "A5",
    "A",
    N_("The first-step loss"),
    "用 {model}（词表 {V}）从头初始化训练，第一步 loss 应约多少？看到 {loss} 说明什么？",
    "Training {model} (vocabulary {V}) from scratch: about what should the first-step loss be? What does a "
    "first loss of {loss} tell you?",
    _draw_a5,
    [
        Part(
            "expected",
            "The expected first loss?",
            "第一步 loss 应约多少？",
            Number("nats", "nats", Tolerance(abs=0.1)),
            lambda p: T.uniform_loss(p["V"]),
            how=lambda p, t: ("cross-entropy of all-zero logits over V classes", "V 类全零 logits 的交叉熵"),
        ),
        Part(
            "verdict",
            "A first loss of {loss} means?",
            "看到 {loss} 说明什么？",
            Choice(VERDICT_OPTIONS),
            lambda p: T.first_loss_verdict(p["loss"], p["V"], p["kind"]),
        ),
    ],
    C.ANSWERS["A5"],
    "ln 151936 ≈ 11.9; 15.0 is clearly too high: the initial logits are too large, check the output layer's init "
    "(part 3: the first loss ≈ ln V sanity check).",
    ("part 3, must-remember: the first loss should be ln V", "第三篇“必记”：第一步 loss ≈ ln V"),
    course={"model": "Qwen2.5-0.5B", "V": 151936, "loss": 15.0, "kind": "too_high"},
    view=lambda p: {"loss": f"{p['loss']:.1f}"},
)


# ------------------------------------------------------------------ A6
def _draw_a6(rng):
    while True:
        p = {
            "n_b": rng.choice([0.5, 1, 1.5, 2, 3, 4, 7, 8, 13, 14]),
            "card_gb": rng.choice([12, 16, 24, 40, 48, 80]),
            "pct": rng.choice([0.5, 1, 1.5, 2, 3, 5]),
        }
        full = T.full_state_bytes(p["n_b"] * 1e9) / GB
        lora = T.lora_state_bytes(p["n_b"] * 1e9, p["n_b"] * 1e9 * p["pct"] / 100) / GB
        if min(abs(full / p["card_gb"] - 1), abs(lora / p["card_gb"] - 1)) > 0.08:
            return p


def _a6_lora(p):
    n = p["n_b"] * 1e9
    return T.lora_state_bytes(n, n * p["pct"] / 100)


A6 = Question(
    "A6",
    "A",
    N_("Full vs LoRA training state"),
    "一个 {n}B 模型全量微调（bf16 + AdamW）不算激活要多少显存？一张 {card} GB 的卡够不够？改成可训练 {pct}% 的 LoRA "
    "呢？",
    "Fully fine-tuning a {n}B model (bf16 + AdamW), activations aside: how much GPU memory? Is one {card} GB card "
    "enough? And with LoRA training {pct}% of the parameters?",
    _draw_a6,
    [
        Part(
            "full",
            "Full fine-tuning, without activations?",
            "全量微调（不算激活）要多少？",
            Number("bytes", "GB", Tolerance(rel=0.03), also=("GiB",)),
            lambda p: T.full_state_bytes(p["n_b"] * 1e9),
            how=lambda p, t: (
                f"{g(p['n_b'])}e9 x {g(T.bytes_per_trainable_param())} bytes, read off real tensors after "
                f"one AdamW step",
                f"{g(p['n_b'])}e9 × {g(T.bytes_per_trainable_param())} 字节（一步 AdamW 后真实张量的字节数）",
            ),
        ),
        Part(
            "full_fits",
            "Enough with one {card} GB card?",
            "一张 {card} GB 的卡够不够？",
            YesNo(),
            lambda p: T.full_state_bytes(p["n_b"] * 1e9) <= p["card_gb"] * GB,
        ),
        Part(
            "lora",
            "LoRA with {pct}% trainable?",
            "可训练 {pct}% 的 LoRA 要多少？",
            Number("bytes", "GB", Tolerance(rel=0.03), also=("GiB",)),
            _a6_lora,
            how=lambda p, t: (
                f"frozen base {g(p['n_b'])}e9 x {g(T.state_bytes_per_param()['frozen_weights'])} + "
                f"adapters {g(p['n_b'] * p['pct'] / 100)}e9 x {g(T.bytes_per_trainable_param())} (real "
                f"peft tensors)",
                f"冻结基座 {g(p['n_b'])}e9 × {g(T.state_bytes_per_param()['frozen_weights'])} + 可训练 "
                f"{g(p['n_b'] * p['pct'] / 100)}e9 × {g(T.bytes_per_trainable_param())}（真实 peft "
                f"张量）",
            ),
        ),
        Part(
            "lora_fits",
            "Does LoRA fit the {card} GB card?",
            "LoRA 放得进 {card} GB 的卡吗？",
            YesNo(),
            lambda p: _a6_lora(p) <= p["card_gb"] * GB,
        ),
    ],
    C.ANSWERS["A6"],
    "3 x 16 = 48 GB: 24 GB is not enough; LoRA: frozen bf16 3 x 2 = 6 GB + 0.03B x 16 = 0.48 GB ≈ 6.5 GB: it fits, "
    "and the rest is left for the activations.",
    ("part 4, must-remember: 16 bytes = 2 + 2 + 4 + 4 + 4", "第四篇“必记”：16 字节 = 2 + 2 + 4 + 4 + 4"),
    course={"n_b": 3, "card_gb": 24, "pct": 1},
    view=lambda p: {"n": g(p["n_b"]), "card": p["card_gb"], "pct": g(p["pct"])},
)

# ------------------------------------------------------------------ A7
ACT_TOL = Tolerance(low=0.5, high=1.25)  # A7's check: an estimate within 0.5x-1.25x of the measured bytes


def _draw_a7(rng):
    return {"B": rng.choice([1, 2, 3, 4, 6, 8]), "T": rng.choice([1024, 2048, 4096, 8192, 16384, 32768])}


CKPT_OPTIONS = [
    Option("inputs", "each layer's input only; the rest is recomputed in backward", "只存每层的输入，其余在反向时重算"),
    Option("bf16", "every activation, but in bf16 instead of fp32", "所有激活，只是改存 bf16"),
    Option("scores", "the attention scores only", "只存 attention 分数"),
    Option("nothing", "nothing at all: the whole forward is rerun", "什么都不存，整个前向重跑"),
]


def _ckpt_keeps(p):
    cfg = T.llama3_8b()
    per_layer_input = p["B"] * p["T"] * cfg["hidden_size"] * 2 * cfg["num_hidden_layers"]
    return "inputs" if T.activation_bytes(cfg, p["B"], p["T"], checkpointing=True) == per_layer_input else "other"


A7 = Question(
    "A7",
    "A",
    N_("Activations vs B, T and checkpointing"),
    "Llama-3-8B 微调，\\(B = {B}\\)、\\(T = {T}\\)，不开 checkpointing 的激活约多少？开了呢？",
    "Fine-tuning Llama-3-8B at B = {B}, T = {T}: about how large are the activations without checkpointing? "
    "And with it?",
    _draw_a7,
    [
        Part(
            "plain",
            "Activations without checkpointing?",
            "不开 checkpointing 的激活约多少？",
            Number("bytes", "GiB", ACT_TOL, also=("GB",)),
            lambda p: T.activation_bytes(T.llama3_8b(), p["B"], p["T"]),
            how=lambda p, t: activations_how(p["B"], p["T"], t),
        ),
        Part(
            "checkpointed",
            "With gradient checkpointing?",
            "开了 checkpointing 呢？",
            Number("bytes", "GiB", Tolerance(rel=0.05), also=("GB",)),
            lambda p: T.activation_bytes(T.llama3_8b(), p["B"], p["T"], checkpointing=True),
            how=lambda p, t: (
                "measured the same way under transformers' gradient checkpointing",
                "同样方法在 transformers 的 gradient checkpointing 下实测",
            ),
        ),
        Part("keeps", "What does checkpointing keep?", "checkpointing 存的是什么？", Choice(CKPT_OPTIONS), _ckpt_keeps),
    ],
    C.ANSWERS["A7"],
    "Part 4: about 16.5 GiB at B = 1, T = 4096, proportional to B x T, so x4 gives about 66 GiB; checkpointing "
    "keeps only each layer's input (1.0 GiB at B = 1, T = 4096), x4 about 4 GiB, at the cost of about 30% more "
    "compute.",
    (
        "part 4, must-remember: activations ~16.5 GiB at B=1, T=4096; checkpointing -> 1 GiB",
        "第四篇“必记”：激活 B = 1、T = 4096 约 16.5 GiB；checkpointing 换成 1 GiB",
    ),
    course={"B": 2, "T": 8192},
)

# ------------------------------------------------------------------ A8
A8_MODELS = {
    "Qwen2.5-0.5B": ("第五篇的 0.5B 模型", "part 5's 0.5B model"),
    "Llama-3-8B": ("第四篇的 Llama-3-8B", "part 4's Llama-3-8B"),
}


def _draw_a8(rng):
    r0 = rng.choice([4, 8, 16, 32])
    return {
        "model": rng.choice(sorted(A8_MODELS)),
        "r0": r0,
        "r1": rng.choice([r for r in (4, 8, 16, 32, 64, 128) if r != r0]),
    }


def _a8_config(p):
    return T.MODELS[p["model"]]()


def _a8_view(p):
    n0 = T.lora_trainable(_a8_config(p), p["r0"])
    return {
        "model_zh": A8_MODELS[p["model"]][0],
        "model_en": A8_MODELS[p["model"]][1],
        "n0": millions(n0),
        "s0": mb(n0 * T.bytes_per_trainable_param()),
    }


A8 = Question(
    "A8",
    "A",
    N_("LoRA parameters vs r"),
    "{model_zh} \\(r = {r0}\\) 时可训练 {n0}、训练状态 {s0}；把 r 改成 {r1}，两者各变成多少？",
    "With r = {r0}, {model_en} trains {n0} parameters with {s0} of training state; with r = {r1}, what do the two "
    "become?",
    _draw_a8,
    [
        Part(
            "trainable",
            "Trainable parameters at r = {r1}?",
            "r = {r1} 时可训练参数？",
            Number("count", "", Tolerance(rel=0.02), also=("M",)),
            lambda p: T.lora_trainable(_a8_config(p), p["r1"]),
            how=lambda p, t: (
                "peft's get_peft_model on a meta-device model, parameters with requires_grad",
                "meta 设备上的模型套 peft get_peft_model，数 requires_grad 的参数",
            ),
        ),
        Part(
            "state",
            "Their training state?",
            "它们的训练状态？",
            Number("bytes", "MB", Tolerance(rel=0.03)),
            lambda p: T.lora_trainable(_a8_config(p), p["r1"]) * T.bytes_per_trainable_param(),
        ),
        Part(
            "share",
            "What share of the base model's parameters is that?",
            "占基座参数的比例？",
            Number("fraction", "%", Tolerance(abs=0.002)),
            lambda p: T.lora_trainable(_a8_config(p), p["r1"]) / T.model_params(_a8_config(p)),
        ),
    ],
    C.ANSWERS["A8"],
    "LoRA's parameter count r(m + n) is linear in r: 17.6M (about 3.6%), training state 17.6M x 16 ≈ 282 MB; the "
    "frozen base does not change.",
    ("part 5, must-remember: 0.5B trains 8.80M / 494M = 1.78%", "第五篇“必记”：0.5B 可训练 8.80M / 494M = 1.78%"),
    course={"model": "Qwen2.5-0.5B", "r0": 16, "r1": 32},
    view=_a8_view,
)

# ------------------------------------------------------------------ A9
A9_MODELS = ("Llama-3-8B", "Qwen2.5-0.5B")


def _a9_weights(p):
    return T.model_params(T.MODELS[p["model"]]()) * 2


def _a9_kv(p):
    return T.kv_cache_bytes(T.MODELS[p["model"]](), p["n"], p["ctx"], "bfloat16")


def _draw_a9(rng):
    while True:
        p = {
            "model": rng.choice(A9_MODELS),
            "n": rng.choice([8, 16, 32, 48, 64, 96, 128, 192, 256]),
            "ctx": rng.choice([1024, 2048, 4096, 8192, 16384, 32768]),
            "gpu_gb": rng.choice([24, 40, 48, 80, 96, 141]),
        }
        need = (_a9_weights(p) + _a9_kv(p)) / GB
        if abs(need / p["gpu_gb"] - 1) > 0.05:
            return p


A9 = Question(
    "A9",
    "A",
    N_("KV-cache bytes"),
    "{model} bf16 推理，{n} 个并发请求、每个 {ctx_text} 上下文，KV cache 多大？加上权重能不能放进一张 {gpu_gb} GB 卡？",
    "{model} bf16 inference, {n} concurrent requests with a {ctx_text} context each: how large is the KV cache? "
    "With the weights, does it fit one {gpu_gb} GB GPU?",
    _draw_a9,
    [
        Part(
            "kv",
            "KV cache?",
            "KV cache 多大？",
            Number("bytes", "GB", Tolerance(rel=0.03), also=("GiB",)),
            _a9_kv,
            how=lambda p, t: (
                f"a real transformers DynamicCache after a meta-device forward of [{p['n']}, {p['ctx']}] tokens",
                f"meta 设备上前向 [{p['n']}, {p['ctx']}] 个 token 后真实 DynamicCache 的字节数",
            ),
        ),
        Part(
            "fits",
            "Weights plus KV cache in {gpu_gb} GB?",
            "加上权重放得进 {gpu_gb} GB 吗？",
            YesNo(),
            lambda p: _a9_weights(p) + _a9_kv(p) <= p["gpu_gb"] * GB,
            how=lambda p, t: (
                f"weights {gb(_a9_weights(p))} (bf16 parameters of the meta model) + KV cache",
                f"权重 {gb(_a9_weights(p))}（meta 模型的 bf16 参数）+ KV cache",
            ),
        ),
    ],
    C.ANSWERS["A9"],
    "131 KB x 4096 x 128 ≈ 68.7 GB; with 16 GB of weights about 85 GB: it does not fit; reduce the concurrency, "
    "shorten the context or quantise the KV cache.",
    (
        "part 6, must-remember: KV cache 131 KB/token for Llama-3-8B",
        "第六篇“必记”：Llama-3-8B 的 KV cache 每 token 131 KB",
    ),
    course={"model": "Llama-3-8B", "n": 128, "ctx": 4096, "gpu_gb": 80},
    view=lambda p: {"ctx_text": ctx(p["ctx"])},
)

# ------------------------------------------------------------------ A10
A10_KINDS = ("input-bound", "compute-bound", "overhead-bound")


def _draw_a10(rng):
    while True:
        kind = rng.choice(["input-bound", "input-bound", "compute-bound", "overhead-bound"])
        wall = rng.choice(range(120, 901, 20))
        busy = rng.uniform(0.1, 0.28) if kind == "input-bound" else rng.uniform(0.75, 0.95)
        share = {
            "input-bound": rng.uniform(0.4, 0.8),
            "compute-bound": rng.uniform(0.7, 0.9),
            "overhead-bound": rng.uniform(0.05, 0.18),
        }[kind]
        p = {"wall": wall, "device": round(wall * busy), "share": round(share * 100)}
        if T.step_kind(T.idle_fraction(p["wall"], p["device"]), p["share"] / 100) is not None:
            break
    if rng.random() < 1 / 3:  # a real profile of one of the A10 check's setups instead of drawn numbers
        p["profile"] = {
            "kind": rng.choice(A10_KINDS),
            "batch": rng.choice([4, 8]),
            "seq": rng.choice([64, 128]),
            "seed": rng.randrange(1000),
        }
    return p


def _a10_shown(p) -> dict:
    """The numbers the question shows: a real profile's (when it showed its setup clearly) or the drawn ones."""
    real = T.profile_summary(**p["profile"]) if p.get("profile") else None
    if real is None:
        return {"wall": p["wall"], "device": p["device"], "share": p["share"], "kind": None, "top": None}
    return {
        "wall": round(real["wall_ms"]),
        "device": round(real["device_ms"]),
        "share": round(real["share"] * 100),
        "kind": p["profile"]["kind"],
        "top": real["top"],
    }


def _a10_table(p, lang):
    top = _a10_shown(p)["top"]
    if not top:
        return ""
    head = tr_(
        lang,
        "\n    A real torch.profiler run of two training steps on this machine's CPU (an op's self CPU time "
        "stands for its device time); its top rows (name, calls, self ms, total ms):",
        "\n    这是本机 CPU 上两步训练的真实 torch.profiler 结果（算子的 self CPU 时间代表设备时间）；"
        "前几行（名称、调用次数、self ms、total ms）：",
    )
    return head + "".join(f"\n      {n:<58} {c:>5} {s:>9.2f} {t:>9.2f}" for n, c, s, t in top)


def tr_(lang, en, zh):
    return zh if lang == "zh" else en


def _a10_kind(p):
    shown = _a10_shown(p)
    if shown["kind"] is not None:  # a real profile: the setup it was made with (A10's ground truth)
        return shown["kind"]
    return T.step_kind(T.idle_fraction(shown["wall"], shown["device"]), shown["share"] / 100)


BOTTLENECK_OPTIONS = [
    Option(
        "input-bound",
        "the GPU is idle: data loading, syncs (.item() every step) or launch overhead",
        "GPU 在空转：数据加载、同步（如每步 .item()）或 launch 开销",
    ),
    Option(
        "compute-bound", "GPU compute: GEMM and attention, a healthy step", "GPU 算力：GEMM 与 attention，正常的一步"
    ),
    Option(
        "overhead-bound",
        "shape conversions on the GPU: copy_ / contiguous dominate",
        "GPU 上的形状转换：copy_ / contiguous 占大头",
    ),
    Option("bandwidth", "the optimizer's memory bandwidth", "优化器的显存带宽"),
]

A10 = Question(
    "A10",
    "A",
    N_("Where did the step's time go"),
    "一步训练墙钟 {wall} ms，profiler 表里 CUDA 时间合计 {device} ms、aten::mm 与 attention 占其中 {share}%。"
    "瓶颈最可能在哪？",
    "A training step takes {wall} ms of wall-clock time; the profiler's CUDA times add up to {device} ms, aten::mm "
    "and attention being {share}% of that. Where is the bottleneck most likely?",
    _draw_a10,
    [
        Part(
            "idle",
            "What fraction of the step is the GPU idle?",
            "GPU 有多大比例的时间在空转？",
            Number("fraction", "", Tolerance(abs=0.02)),
            lambda p: T.idle_fraction(_a10_shown(p)["wall"], _a10_shown(p)["device"]),
            how=lambda p, t: (
                f"1 - {_a10_shown(p)['device']} / {_a10_shown(p)['wall']}",
                f"1 − {_a10_shown(p)['device']} / {_a10_shown(p)['wall']}",
            ),
        ),
        Part(
            "where",
            "The bottleneck?{table_en}",
            "瓶颈在哪？{table_zh}",
            Choice(BOTTLENECK_OPTIONS),
            _a10_kind,
            how=lambda p, t: (
                "the A10 check's real profiles: idle >= 0.7 is input-bound; busy with GEMM/attention "
                ">= 65% compute-bound; busy with <= 20% copy-heavy",
                "A10 检查的真实 profile：空转 ≥ 70% 是输入受限；忙且 GEMM/attention ≥ 65% 是算力；忙且 ≤ 20% 是拷贝",
            ),
        ),
    ],
    C.ANSWERS["A10"],
    "The GPU is idle 70% of the time: its times add up to far less than the wall clock, so it waits on data "
    "loading, syncs (such as .item() every step) or launch overhead; GEMM and attention at 60% say the part that "
    "does run on the GPU is normal.",
    (
        "part 6, must-remember: GEMM + attention should dominate; GPU time << wall time means idle",
        "第六篇“必记”：GEMM 与 attention 应占大头；GPU 时间远小于墙钟就是空转",
    ),
    course={"wall": 300, "device": 90, "share": 60},
    view=lambda p: {
        **{k: _a10_shown(p)[k] for k in ("wall", "device", "share")},
        "table_en": _a10_table(p, "en"),
        "table_zh": _a10_table(p, "zh"),
    },
)

QUESTIONS = [A1, A2, A3, A4, A5, A6, A7, A8, A9, A10]
