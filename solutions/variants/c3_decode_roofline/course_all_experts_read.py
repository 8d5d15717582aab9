"""The course's own answer to the follow-up, 「MoE 为什么推理特别难（FLOPs 降但全部专家权重都要读）」
(part 7, §五.C q3): FLOPs of the active experts, bytes of every expert's weights. Under the
stub's convention (a serving batch of at least total / active sequences) this is right; issue 23
found it flagged as "a known mistake" at batch 1, a batch the follow-up does not mean."""

from solutions.c3_decode_roofline import *  # noqa: F403

PASSES = ("moe_decode_cost",)


def moe_decode_cost(total_params, active_params, batch, bytes_per_param):
    return 2.0 * active_params * batch, float(total_params * bytes_per_param)
