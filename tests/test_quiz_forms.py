"""Every answer form the course uses is accepted (issue 26's follow-up): for each question, the words
and numbers of its 答案 in part 7 (000_*.txt) — units such as 16 卡以上 / 72 卡 / 两张卡, 1 道, ±10.7%, a
sum 2 + 2 + 4 + 4 + 4, yes/no as the question's own verb phrase (分辨不出来, 放得进, 一致), options by a
name, a prefix or words of it (GPU 空转, 只存每层输入, 文件 hash), several options listed as the course
lists them (run id · commit · 配置文件 · …). On the course's numbers where the bank has them, else on a
drawn variant (a form written with this variant's value)."""

from __future__ import annotations

import pytest

from grader.quiz import bank
from grader.quiz.answers import YesNo

# (question, part, what the learner types; "{pct}" etc. are filled from the variant's right value)
FORMS = [
    ("A1", "list_gb", "约 40 GB"),
    ("A1", "fits", "装不下"),
    ("A1", "generator", "与文件大小无关"),
    ("A2", "nbytes", "16 MiB"),
    ("A2", "int_index", "(16, 1024)"),
    ("A2", "slice", "(16, 1, 1024)"),
    ("A3", "can", "能"),
    ("A3", "shape", "(8, 16, 64)"),
    ("A4", "grad", "60"),
    ("A5", "expected", "≈ 11.9"),
    ("A5", "verdict", "明显偏高"),
    ("A5", "verdict", "初始 logits 太大"),
    ("A6", "full", "48 GB"),
    ("A6", "full_fits", "不够"),
    ("A6", "lora", "约 6.5 GB"),
    ("A6", "lora_fits", "够"),
    ("A7", "plain", "约 66 GiB"),
    ("A7", "checkpointed", "约 4 GiB"),
    ("A7", "keeps", "只存每层输入"),
    ("A7", "keeps", "只存每层的输入"),
    ("A8", "trainable", "17.6M"),
    ("A8", "state", "282 MB"),
    ("A8", "share", "约 3.6%"),
    ("A9", "kv", "68.7 GB"),
    ("A9", "fits", "放不下"),
    ("A9", "fits", "放不进"),
    ("A10", "idle", "70%"),
    ("A10", "where", "GPU 空转"),
    ("B1", "block", "激活"),
    ("B1", "activations", "约 132 GiB"),
    ("B1", "fixes", "gradient_checkpointing_enable、减 batch、缩短序列"),
    ("B1", "ckpt_fits", "放得下"),
    ("B1", "draws_on", "第三篇、第四篇、第五篇"),
    ("B2", "records", "commit、数据版本、环境、seed"),
    ("B2", "ci", "±{pct}"),
    ("B2", "tell", "分辨不出"),
    ("B2", "tell", "分辨不出来"),
    ("B2", "draws_on", "第六篇、第二篇"),
    ("B3", "file", "sft_trainer.py"),
    ("B3", "draws_on", "第五篇 第三篇"),
    ("B4", "floor", "约 0.3 ms"),
    ("B4", "changes", "不变"),
    ("B4", "draws_on", "第五篇、第四篇、第六篇"),
    ("B5", "per_gpu", "16.7 GB"),
    ("B5", "why", "GIL"),
    ("B5", "command", "torchrun --nproc_per_node=8 train.py"),
    ("B5", "draws_on", "第四篇、第一篇、第五篇"),
    ("C1", "bytes", "16 字节"),
    ("C1", "bytes", "2 + 2 + 4 + 4 + 4"),
    ("C1", "full", "1120 GB"),
    ("C1", "full_gpus", "16 卡以上"),
    ("C1", "full_gpus", "16 张"),
    ("C1", "full_gpus", "16 卡"),
    ("C1", "one_node", "不够"),
    ("C1", "lora", "≈ 155 GB"),
    ("C1", "lora_gpus", "两张卡起"),
    ("C1", "outside", "激活"),
    ("C1", "factors", "batch、序列长、层数、hidden"),
    ("C1", "strategy", "FSDP"),
    ("C1", "inference", "1/8"),
    ("C6", "bands", "{echo}"),
    ("C6", "ci", "±{pct}"),
    ("C6", "tell", "{tell}"),
    ("C6", "improved", "{n} 道"),
    ("C6", "record", "run id、commit、配置、数据版本、seed、环境、指标"),
    ("C6", "same_seed", "一致"),
    ("C6", "gpu", "use_deterministic_algorithms"),
    ("C6", "data_version", "文件 hash"),
    ("C7", "list_gb", "约 50 GB"),
    ("C7", "generator", "与文件大小无关"),
    ("C7", "pool", "multiprocessing.Pool"),
    ("C7", "threads", "1.0×"),
    ("C7", "chunksize", "每次传一批"),
    ("C7", "record", "数据版本"),
    ("C7", "not_linear", "进程启动、pickle"),
    ("C7", "map_lazy", "惰性"),
    ("C4", "blocks", "权重、梯度与优化器状态、激活、KV cache"),
    ("C4", "state_bytes", "14 字节"),
    ("C4", "reserved", "碎片"),
    ("C4", "after", "max_memory_allocated()"),
    ("C2", "early", "对数 x 轴"),
    ("C2", "wrapper", "compute_loss"),
    ("C2", "cpu_autocast", "慢很多倍"),
    ("C5", "ignore", "−100"),
    ("C5", "float", "softmax"),
    ("C3", "prefill_bound", "compute-bound"),
    ("C3", "prefill_bound", "算力"),
    ("R.ci95", "half_width", "±{pct}"),
    ("R.run_record_items", "items", "run id · commit · 配置文件 · 数据版本 · seed · 环境 · 指标"),
    ("R.bytes_per_param", "total", "2 + 2 + 4 + 4 + 4"),
    ("R.bytes_per_param", "pieces", "bf16 权重、bf16 梯度、fp32 主权重、AdamW 一阶矩、AdamW 二阶矩"),
    # part 4's "AdamW 两个矩 4 + 4": one name of both moments, as the graded R, A6 and C1 read it
    ("R.bytes_per_param", "pieces", "bf16 权重、bf16 梯度、fp32 主权重、AdamW 两个矩"),
    ("R.bytes_per_param", "pieces", "bf16 权重、bf16 梯度、fp32 主权重、一阶矩和二阶矩"),
    ("R.bytes_per_param", "pieces", "bf16 权重、bf16 梯度、fp32 主权重、两个动量"),
    ("R.bytes_per_param", "pieces", "bf16 weights, bf16 gradients, fp32 master weights, m and v"),
    ("R.kv_cache_per_token", "per_token", "{kb} KB/token"),
    ("R.thread_speedup", "speedup", "1.0×"),
    ("R.part_topics", "part", "{part}"),
]


def _variant(q):
    return q.course_variant() if q.course is not None else q.variant(2026)


def _fill(typed, v, part, answer, truth):
    if "{" not in typed:
        return typed
    from grader.quiz.answers import Choice

    fields = {
        "pct": f"{float(truth) * 100:.2f}%" if isinstance(truth, float) else "",
        "n": truth,
        "kb": f"{float(truth) / 1000:.6g}" if isinstance(truth, (int, float)) else "",
    }
    if isinstance(answer, YesNo):
        words = {"bands": ("重叠", "不重叠"), "tell": ("分辨得出", "分辨不出来")}[part.id]
        fields.update(echo=words[0] if truth else words[1], tell=words[0] if truth else words[1])
    if isinstance(answer, Choice) and part.id == "part":
        first = truth[0] if isinstance(truth, (tuple, list)) else truth  # one of the parts the course states
        fields["part"] = next(o.zh.split("：")[0] for o in answer.options if o.key == first)
    return typed.format(**fields)


@pytest.mark.parametrize("qid,part_id,typed", FORMS)
def test_the_course_answer_form_is_accepted(qid, part_id, typed):
    q = bank.get(qid)
    v = _variant(q)
    part = q.part(part_id)
    answer = v.answer(part)
    if isinstance(answer, YesNo):
        answer = answer.echoing(v.prompt(part, "zh"))
    truth = v.truth(part)
    typed = _fill(typed, v, part, answer, truth)
    value = answer.parse(typed)
    assert answer.assess(value, truth), (typed, answer.show(truth, "zh"))


def test_every_question_of_a_b_c_has_a_course_form():
    asked = {qid for qid, _, _ in FORMS}
    assert [q.id for q in bank.questions() if q.id not in asked and q.set != "R"] == []


def test_a_refused_option_is_quoted_as_typed():
    """The message quotes what was typed, not a lower-cased copy of it ('GPU', not 'gpu')."""
    from grader.quiz.units import Invalid

    q = bank.get("A10")
    v = _variant(q)
    answer = v.answer(q.part("where"))
    with pytest.raises(Invalid) as refused:
        answer.parse("GPU 满载")
    assert "'GPU" in refused.value.en and "gpu" not in refused.value.en + refused.value.zh
