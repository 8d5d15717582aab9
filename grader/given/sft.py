"""P4、X5 和 B4 的 SFT 部件：数据和贪心解码。P4 和 X5 的检查在自己的进程里跑训练和解码（在学习者
进程里跑的话，学习者的模块可能把它换掉）；驱动程序用这里的数据和 ``add_lora``。学习者可见（存根描述
这次运行）：这里没有任何答案的任何部分（数据路径、训练循环、LoRA 的做法，以及“答了并停下”的判定
都属于检查，在 grader/checks/truth/sft.py）。

格式是一个普通的 ``Q: {question}\\nA:`` 提示，后面接 `` {answer}`` 和 EOS token
``<|endoftext|>``，这是 SmolLM2-135M-Instruct 原本不会在其中停下的格式（SFT 之前它会一直说下去）。

English
-------

The SFT pieces of P4, X5 and B4: the data and greedy decoding. P4's and X5's checks run the
training and the decoding in their own process (a run in the learner's process could be replaced by
the learner's module); the drivers use the data and ``add_lora``. Learner-visible (the stubs
describe this run): it holds no part of any answer (the data path, the training loop, the LoRA
recipe and the judge of "answered and stopped" are the checks', in grader/checks/truth/sft.py).

The format is a plain ``Q: {question}\\nA:`` prompt followed by `` {answer}`` and the EOS token
``<|endoftext|>``, a format SmolLM2-135M-Instruct does not already stop in (before SFT it rambles on).
"""

from __future__ import annotations

import random

PROMPT = "Q: {question}\nA:"

# 各国首都（问题始终用同一种问法）。训练集和留出集不相交。
# Capital cities (questions phrased one way throughout). Training and held-out are disjoint.
TRAIN_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (f"What is the capital of {country}?", city)
    for country, city in [
        ("France", "Paris"),
        ("Germany", "Berlin"),
        ("Spain", "Madrid"),
        ("Japan", "Tokyo"),
        ("Russia", "Moscow"),
        ("Egypt", "Cairo"),
        ("Greece", "Athens"),
        ("Austria", "Vienna"),
        ("Norway", "Oslo"),
        ("Sweden", "Stockholm"),
        ("Portugal", "Lisbon"),
        ("Ireland", "Dublin"),
        ("Poland", "Warsaw"),
        ("Kenya", "Nairobi"),
    ]
)
HELD_OUT_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (f"What is the capital of {country}?", city)
    for country, city in [
        ("Italy", "Rome"),
        ("England", "London"),
        ("China", "Beijing"),
        ("Thailand", "Bangkok"),
        ("Finland", "Helsinki"),
        ("Denmark", "Copenhagen"),
    ]
)

# 12 步，不是课程测量用的 30 步（原因见 grader/checks/truth/sft.py）。
# 12 steps, not the 30 of the course's measurement (why: grader/checks/truth/sft.py).
TRAIN_STEPS, BATCH_SIZE = 12, 4


def eos_id(tokenizer) -> int:
    from grader.given.smollm import EOS_TOKEN

    return int(tokenizer.convert_tokens_to_ids(EOS_TOKEN))


def add_lora(model, lora: dict):
    """``model`` 按检查传来的设置（``LoraConfig`` 的字段）包上 peft LoRA。

    English
    -------

    ``model`` wrapped in peft LoRA with the settings the check sends (``LoraConfig`` fields).
    """
    from peft import LoraConfig, get_peft_model

    return get_peft_model(model, LoraConfig(**lora))


def batch_order(n_pairs: int, steps: int, batch_size: int, seed: int) -> list[list[int]]:
    """每一步的 batch 里放哪些对：打乱的 epoch，由 ``seed`` 确定。

    English
    -------

    Which pairs go in each step's batch: shuffled epochs, deterministic from ``seed``.
    """
    rng, order, out = random.Random(seed), [], []
    while len(out) < steps:
        if len(order) < batch_size:
            perm = list(range(n_pairs))
            rng.shuffle(perm)
            order += perm
        out.append(order[:batch_size])
        order = order[batch_size:]
    return out


def greedy_new_tokens(model, tokenizer, questions, max_new_tokens: int, eos: int) -> list[list[int]]:
    """每个 ``Q: ...\\nA:`` 提示的贪心续写（一次一个，不做 padding）：新的 token id，生成了 EOS 时
    也包含它（生成在那里停止）。

    English
    -------

    Greedy continuation of each ``Q: ...\\nA:`` prompt (one at a time, no padding): the new
    token ids, EOS included when it is produced (generation stops there).
    """
    import torch

    out = []
    with torch.no_grad():
        for q in questions:
            ids = tokenizer(PROMPT.format(question=q), add_special_tokens=False, return_tensors="pt")["input_ids"]
            gen = model.generate(
                ids,
                attention_mask=torch.ones_like(ids),
                max_new_tokens=max_new_tokens,
                do_sample=False,
                eos_token_id=eos,
                pad_token_id=eos,
            )
            out.append([int(t) for t in gen[0, ids.shape[1] :]])
    return out
