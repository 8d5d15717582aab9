"""A6 — 训练状态的显存：全量微调与 LoRA。

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 6 题）::

    一个 3B 模型全量微调（bf16 + AdamW）不算激活要多少显存？一张 24 GB 的卡够不够？改成可训练 1% 的 LoRA 呢？

对任意参数量作答，按课程对 bf16 混合精度加 AdamW 的约定。AdamW 每个张量的 ``step`` 计数器（每个
参数张量一个标量）不算在内。所有结果都是字节数，普通的 int（不是 GB，不是 GiB）。

评分器测什么：你的字节数与真实张量的字节数相比（一个小的 Llama 式模型，真的按这个约定搭好，做过
一次优化器 step；全部可训练，以及带 peft LoRA adapter 的），以及课程的这道题。

学习：第四篇 · 必记；第四篇 · 结论。

English
-------

A6 — the memory of the training state: full fine-tuning vs LoRA.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 6)::

    一个 3B 模型全量微调（bf16 + AdamW）不算激活要多少显存？一张 24 GB 的卡够不够？改成可训练 1% 的 LoRA 呢？

    Full fine-tuning of a 3B model (bf16 + AdamW), activations not counted: how much GPU
    memory? Is a 24 GB card enough? And with LoRA, training 1% as many parameters?

Answer it for any parameter counts, under the course's convention for bf16 mixed precision
with AdamW. AdamW's per-tensor ``step`` counters (one scalar per parameter tensor) are left out.
All results are bytes, as plain ints (not GB, not GiB).

What the grader measures: your bytes against the bytes of real tensors (a small Llama-style
model set up in that convention for real, after one optimizer step; fully trainable, and with
peft LoRA adapters), and the course's question.

Study: 第四篇 · 必记 / part 4, must-remember; 第四篇 · 结论 / part 4, conclusion.
"""


def full_finetune_bytes(n_params: int) -> int:
    """全部 ``n_params`` 个参数都训练时训练状态的字节数。

    参数：
        n_params: 模型的参数量，全部可训练，int，>= 0。

    返回：
        字节数，普通的 int。

    出处：第四篇 · 必记；第七篇 · A. 判断与计算（第 6 题）。

    English
    -------

    Bytes of the training state when all ``n_params`` parameters train.

    Args:
        n_params: parameters of the model, all trainable, an int >= 0.

    Returns:
        Bytes, a plain int.

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q6.
    """
    raise NotImplementedError("A6: full_finetune_bytes")


def lora_bytes(n_base: int, n_trainable: int) -> int:
    """LoRA 下训练状态的字节数：冻结的基座模型加上可训练的 adapter。

    参数：
        n_base: 冻结的基座模型的参数量（全部：embedding、norm、linear），>= 0。
        n_trainable: LoRA adapter 的参数量，它们加在基座之上，是唯一训练的参数，>= 0。

    返回：
        字节数，普通的 int。

    出处：第四篇 · 结论；第七篇 · A. 判断与计算（第 6 题）。

    English
    -------

    Bytes of the training state under LoRA: a frozen base model plus trainable adapters.

    Args:
        n_base: parameters of the frozen base model (all of them: embeddings, norms, linears), >= 0.
        n_trainable: parameters of the LoRA adapters, which are added to the base and are the
            only ones that train, >= 0.

    Returns:
        Bytes, a plain int.

    Source: 第四篇 · 结论 / part 4, conclusion; 第七篇 · A. 判断与计算 / part 7, §五.A q6.
    """
    raise NotImplementedError("A6: lora_bytes")


def state_breakdown(n_frozen: int, n_trainable: int) -> dict[str, int]:
    """训练状态按组成部分拆开，以字节计。

    参数：
        n_frozen: 冻结的参数量（全量微调为 0；LoRA 下是基座模型）。
        n_trainable: 可训练的参数量（全量微调为全部参数；LoRA 下是 adapter）。

    返回：
        一个 dict，从每部分的名字映射到它的字节数（普通的 int）：训练状态对每个可训练参数保存的每样东西一项，
        外加一项给冻结的参数，名字里带 ``"frozen"``（或 ``"冻结"``）。名字按意思匹配，用课程的
        说法，中文或英文，或常见的同义词；各值之和等于 :func:`lora_bytes`（``n_frozen == 0`` 时
        也等于 :func:`full_finetune_bytes`）。课程把两个部分合在一起说的地方（它的“AdamW 两个矩”），
        一项可以合起来命名这两个部分：它的值就是两者字节数之和。

    测的是：每一部分与存放它的真实张量的字节数相比。

    出处：第四篇 · 必记。

    English
    -------

    The training state split into its parts, in bytes.

    Args:
        n_frozen: frozen parameters (0 for full fine-tuning; the base model under LoRA).
        n_trainable: trainable parameters (all of them for full fine-tuning; the adapters under
            LoRA).

    Returns:
        A dict from each part's name to its bytes (plain ints): one entry for each thing the
        training state keeps per trainable parameter, and one entry, named with the word
        ``"frozen"`` (or ``"冻结"``), for the frozen parameters. Names are matched by meaning, in the course's
        words, Chinese or English, or a common synonym; the values add up to :func:`lora_bytes`
        (and, with ``n_frozen == 0``, to :func:`full_finetune_bytes`). One entry may name two parts
        together where the course does (its "AdamW 两个矩"): its value is then the bytes of both.

    Measured: each part against the bytes of the real tensors that hold it.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("A6: state_breakdown")
