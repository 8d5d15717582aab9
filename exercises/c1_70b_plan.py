"""C1 — 一个 70B 微调方案，连同账。

课程问（第七篇 · 五、通关自测 · C. 面试题，第 1 题）::

    让你微调一个 70B 模型，全量还是 LoRA、几张 80 GB 卡？把账算给我看。

答案是算术，所以这里写成代码：每个可训练参数的字节数、每种方法的训练状态、GPU 张数、DDP 与 FSDP
之间的选择和每张 GPU 上的字节数；然后是追问方向。约定：bf16 混合精度加 AdamW，同课程。所有大小都是
字节数（int）。

评分器测什么：你的字节数与按这个约定搭好的小模型（全部可训练，以及带 peft LoRA）的真实张量相比，你在
抽取的模型与 GPU 大小上的算术，以及课程的 70B 这道题。

学习：第四篇 · 必记；第四篇 · 结论；第七篇 · C. 面试题。

English
-------

C1 — a 70B fine-tuning plan, with the account.

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 1)::

    让你微调一个 70B 模型，全量还是 LoRA、几张 80 GB 卡？把账算给我看。

    You are to fine-tune a 70B model: full or LoRA, and how many 80 GB cards? Show me the
    account.

The answer is arithmetic, so here it is code: the bytes per trainable parameter, the training
state of each method, the number of GPUs, the choice between DDP and FSDP and the bytes on each
GPU; then the follow-up directions. Convention: bf16 mixed precision with AdamW, as in the
course. All sizes are bytes (ints).

What the grader measures: your bytes against the real tensors of a small model set up in that
convention (fully trainable and with peft LoRA), your arithmetic on drawn model and GPU sizes,
and the course's 70B question.

Study: 第四篇 · 必记 / part 4, must-remember; 第四篇 · 结论 / part 4, conclusion;
第七篇 · C. 面试题 / part 7, §五.C.
"""


def bytes_per_trainable_param() -> dict[str, int]:
    """一个可训练参数在训练状态里花费的字节数，逐部分列出。

    返回：
        一个 dict，从每部分的名字映射到它每个参数的字节数（int），每部分一项；名字用课程的说法，
        中文或英文，或常见的同义词，按意思匹配。课程把两个部分合在一起说的地方（它的“AdamW 两个矩”），
        一项可以合起来命名这两个部分：它的值就是两者字节数之和。

    测的是：与一个小模型在一次优化器 step 之后的真实张量的字节数相比。
    出处：第四篇 · 必记。

    English
    -------

    The bytes one trainable parameter costs in the training state, part by part.

    Returns:
        A dict from each part's name to its bytes per parameter (ints), one entry per part;
        names in the course's words, Chinese or English, or a common synonym, matched by meaning.
        One entry may name two parts together where the course does (its "AdamW 两个矩"): its
        value is then the bytes of both.

    Measured: against the bytes of real tensors of a small model after one optimizer step.
    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("C1: bytes_per_trainable_param")


def state_bytes(n_base: int, n_adapter: int, method: str) -> int:
    """一种方法的训练状态字节数（不含激活）。

    参数：
        n_base: 基座模型的参数量。
        n_adapter: LoRA adapter 的参数量（``"full"`` 时为 0）。
        method: ``"full"``（每个基座参数都训练）、``"lora"``（基座冻结，adapter 训练）或
            ``"qlora"``（同 LoRA，冻结的基座按 QLoRA 的方式存储；字节数向上取整为 int）。

    返回：
        字节数，int。

    抛出：
        ValueError: 未知的方法。

    出处：第四篇 · 必记；第七篇 · C. 面试题（第 1 题）。

    English
    -------

    Training-state bytes (no activations) of one method.

    Args:
        n_base: parameters of the base model.
        n_adapter: LoRA adapter parameters (0 for ``"full"``).
        method: ``"full"`` (every base parameter trains), ``"lora"`` (the base is frozen, the
            adapters train) or ``"qlora"`` (as LoRA, with the frozen base stored the way QLoRA
            stores it; bytes rounded up to an int).

    Returns:
        Bytes, an int.

    Raises:
        ValueError: an unknown method.

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q1.
    """
    raise NotImplementedError("C1: state_bytes")


def inference_bytes(n_params: int) -> int:
    """bf16 推理时模型参数需要的字节数（int）。

    出处：第四篇 · 必记；第七篇 · C. 面试题（追问方向）（第 1 题）。

    English
    -------

    Bytes that bf16 inference needs for the model's parameters (an int).

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q1, follow-ups.
    """
    raise NotImplementedError("C1: inference_bytes")


def gpus_needed(total_bytes: int, gpu_bytes: int) -> int:
    """每张 ``gpu_bytes`` 的 GPU 最少要几张，显存合起来才装得下 ``total_bytes``（int）。

    出处：第七篇 · C. 面试题（第 1 题）。

    English
    -------

    The fewest GPUs of ``gpu_bytes`` each whose memory together holds ``total_bytes`` (an int).

    Source: 第七篇 · C. 面试题 / part 7, §五.C q1.
    """
    raise NotImplementedError("C1: gpus_needed")


def choose_strategy(replica_bytes: int, gpu_bytes: int) -> str:
    """对一次完整副本（训练状态加上一张 GPU 的激活）占 ``replica_bytes`` 的运行，在 ``gpu_bytes`` 的 GPU 上，
    返回 ``"DDP"`` 或 ``"FSDP"``。

    出处：第四篇 · 结论（多卡）。

    English
    -------

    ``"DDP"`` or ``"FSDP"`` for a run whose full replica (the training state plus one GPU's
    activations) takes ``replica_bytes``, on GPUs of ``gpu_bytes``.

    Source: 第四篇 · 结论 (多卡) / part 4, conclusion.
    """
    raise NotImplementedError("C1: choose_strategy")


def per_gpu_bytes(state_bytes: int, activation_bytes: int, strategy: str, n_gpus: int) -> int:
    """每张 GPU 上的字节数。

    参数：
        state_bytes: 整个训练状态（同 :func:`state_bytes`）。
        activation_bytes: 一张 GPU 处理的 micro-batch 的激活。
        strategy: ``"DDP"`` 或 ``"FSDP"``。
        n_gpus: GPU 张数（>= 1）。

    返回：
        字节数，int（向上取整）。

    抛出：
        ValueError: 未知的策略。

    出处：第四篇 · 结论（多卡）。

    English
    -------

    Bytes on each GPU.

    Args:
        state_bytes: the whole training state (as :func:`state_bytes`).
        activation_bytes: the activations of the micro-batch one GPU processes.
        strategy: ``"DDP"`` or ``"FSDP"``.
        n_gpus: the number of GPUs (>= 1).

    Returns:
        Bytes, an int (rounded up).

    Raises:
        ValueError: an unknown strategy.

    Source: 第四篇 · 结论 (多卡) / part 4, conclusion.
    """
    raise NotImplementedError("C1: per_gpu_bytes")
