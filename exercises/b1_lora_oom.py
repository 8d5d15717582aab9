"""B1 — 账算得下、却仍然显存不够的 LoRA SFT。

课程问（第七篇 · 五、通关自测 · B. 跨篇综合，第 1 题）::

    8B LoRA SFT 在一张 80 GB 卡上，账算出 16.7 GB，但 SFTConfig 里 max_length=8192、每卡 batch 4 时
    OOM。哪一块爆了？改什么？

用数字和一个判断作答。所有大小都是字节数（int）。

评分器测什么：你对抽取的预算和课程的预算的判断；你的激活字节数与在真实的小 Llama 模型里测得的相比
（原样，以及做了你的第一个修改之后）；你的另外两个方案是否满足它们必须满足的约束。

学习：第四篇 · 必记；第三篇 · 结论（Autograd）；第五篇 · 结论。

English
-------

B1 — a LoRA SFT whose account fits, and which still runs out of memory.

The course asks (第七篇 · 五、通关自测 · B. 跨篇综合, question 1)::

    8B LoRA SFT 在一张 80 GB 卡上，账算出 16.7 GB，但 SFTConfig 里 max_length=8192、每卡 batch 4 时
    OOM。哪一块爆了？改什么？

    An 8B LoRA SFT on one 80 GB card: the account says 16.7 GB, yet with max_length=8192 and a
    per-GPU batch of 4 in SFTConfig it runs out of memory. Which block overflowed? What do you
    change?

Answer it as numbers and a decision. All sizes are bytes (ints).

What the grader measures: your decision on drawn budgets and on the course's; your activation
bytes against those measured in real small Llama models (as they are, and with your first fix
made); your other two plans against the constraints they must meet.

Study: 第四篇 · 必记 / part 4, must-remember; 第三篇 · 结论 (Autograd) / part 3, conclusion;
第五篇 · 结论 / part 5, conclusion.
"""


def diagnose(state_bytes: int, activation_bytes: int, gpu_bytes: int) -> str:
    """哪一块让 GPU 爆了？

    参数：
        state_bytes: 权重 + 梯度 + 优化器状态（题目里算的那笔账）。
        activation_bytes: 这张 GPU 上一步训练的激活。
        gpu_bytes: GPU 的显存。

    返回：
        ``"parameters_and_state"`` 或 ``"activations"``：让 GPU 爆掉的那一块；什么都没爆时为
        ``"fits"``。

    出处：第四篇 · 结论；第七篇 · B. 跨篇综合（第 1 题）。

    English
    -------

    Which block makes the GPU overflow?

    Args:
        state_bytes: weights + gradients + optimizer state (the account of the question).
        activation_bytes: the activations of one training step on this GPU.
        gpu_bytes: the GPU's memory.

    Returns:
        ``"parameters_and_state"`` or ``"activations"``: the block that overflows the GPU;
        ``"fits"`` when nothing overflows.

    Source: 第四篇 · 结论 / part 4, conclusion; 第七篇 · B. 跨篇综合 / part 7, §五.B q1.
    """
    raise NotImplementedError("B1: diagnose")


def scale_activations(measured_bytes: int, measured_batch: int, measured_seq_len: int, batch: int, seq_len: int) -> int:
    """同一个模型在 ``(batch, seq_len)`` 时的激活字节数，由在 ``(measured_batch, measured_seq_len)``
    时的一次测量推出。

    返回 int（四舍五入到最近的字节）。与真实模型在新的 B、T 下的测量值相比。

    出处：第四篇 · 必记。

    English
    -------

    The activation bytes of the same model at ``(batch, seq_len)``, from a measurement at
    ``(measured_batch, measured_seq_len)``.

    Returns an int (rounded to the nearest byte). Measured against real models at the new B, T.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("B1: scale_activations")


def activations_after_fix(config: dict, batch: int, seq_len: int, bytes_per_element: int) -> int:
    """你的第一个修改既不改模型，也不改 ``batch`` 和 ``seq_len``：做了这个修改之后一步训练的激活字节数。

    参数：
        config: Llama 式的 config，普通 dict（``config.json`` 的字段：
            ``hidden_size``、``intermediate_size``、``num_hidden_layers``、……）。
        batch, seq_len: B 和 T。bytes_per_element: 一个激活元素的字节数。

    返回 int，与做了这个修改的真实模型为 backward 保存的字节数相比。

    出处：第四篇 · 必记。

    English
    -------

    Your first fix changes neither the model nor ``batch`` nor ``seq_len``: the activation
    bytes of one training step once it is made.

    Args:
        config: a Llama-style config as a plain dict (the fields of ``config.json``:
            ``hidden_size``, ``intermediate_size``, ``num_hidden_layers``, ...).
        batch, seq_len: B and T. bytes_per_element: bytes of one activation element.

    Returns an int, measured against the bytes real models save for backward with the fix made.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("B1: activations_after_fix")


def batch_plan(batch: int, max_per_pass: int) -> tuple[int, int]:
    """你的第二个修改：一次只能有 ``max_per_pass`` 个样本通过模型，而每次优化器 step 仍必须从 ``batch``
    个样本学习。

    返回：
        ``(per_pass, passes)``：int；每次有 ``per_pass`` 个样本通过模型，
        ``per_pass * passes == batch``，``per_pass <= max_per_pass``，``per_pass`` 尽可能大。

    出处：第三篇 · 结论（Autograd）。

    English
    -------

    Your second fix: only ``max_per_pass`` samples fit through the model at a time, and
    every optimizer step must still learn from ``batch`` samples.

    Returns:
        ``(per_pass, passes)``: ints; ``per_pass`` samples go through the model at a time,
        ``per_pass * passes == batch``, ``per_pass <= max_per_pass``, ``per_pass`` as large
        as possible.

    Source: 第三篇 · 结论 (Autograd) / part 3, conclusion.
    """
    raise NotImplementedError("B1: batch_plan")


def fit_limit(state_bytes: int, activation_bytes_per_token: int, batch: int, gpu_bytes: int) -> int:
    """你的第三个修改保持 batch 不变：每条序列最多多少个 token（int，>= 0），使得 ``batch`` 条序列的一步
    仍然放得下，已知一条序列的一个 token 花费 ``activation_bytes_per_token`` 的激活。

    出处：第五篇 · 结论；第四篇 · 必记。

    English
    -------

    Your third fix keeps the batch: the most tokens per sequence (an int >= 0) with which a
    step of ``batch`` sequences still fits, when one token of one sequence costs
    ``activation_bytes_per_token`` of activations.

    Source: 第五篇 · 结论 / part 5, conclusion; 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("B1: fit_limit")
