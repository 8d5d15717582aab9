"""Forgets the fp32 master copy: 12 bytes per trainable parameter (2 + 2 + 4 + 4), so 70B full
fine-tuning looks like 840 GB."""

from solutions.c1_70b_plan import *  # noqa: F403
from solutions import c1_70b_plan as _s

KILLED_BY = ("bytes_per_param_parts", "full_finetune_total", "lora_total")

_s.PARTS.pop("master")
