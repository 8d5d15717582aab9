"""Answers 0 (the pad token id of many tokenizers) as the ignore index: labels padded with the pad
id are then real targets of the loss, and cross_entropy's default -100 is what drops them.

EleutherAI/gpt-neo PR #45 ("do not count padding tokens in loss": 0's in the labels were counted);
meta-llama/llama-cookbook issue #73 ("why are we adding zero pad tokens? ... -1 in labels instead
of -100"); huggingface/community-events issue #182 (padding labels with pad_token_id gave a
different loss: "I didn't realize that the NLL loss ignores '-100' labels").
"""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("ignore_index",)
MISCONCEPTION = "take the pad token id (0) as the ignore index: cross_entropy ignores -100, and 0 is a real class"


def ignore_index():
    return 0
