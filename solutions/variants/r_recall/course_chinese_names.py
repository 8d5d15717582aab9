"""The course's own words, in Chinese (part 4's "bf16 权重 / bf16 梯度 / fp32 主权重 / 一阶矩 / 二阶矩",
part 6's "run id · commit · 配置文件 · 数据版本 · seed · 环境 · 指标").

Valid: the same parts and items as the English names.
"""

from solutions.r_recall import *  # noqa: F403

PASSES = ("bytes_per_param", "run_record_items")


def bytes_per_param_parts():
    return {"bf16 权重": 2, "bf16 梯度": 2, "fp32 主权重": 4, "AdamW 一阶矩": 4, "AdamW 二阶矩": 4}


def run_record_items():
    return ["run id", "commit", "配置文件", "数据版本", "seed", "环境", "指标"]
