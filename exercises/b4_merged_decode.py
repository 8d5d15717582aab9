"""B4 — 合并后的 LoRA 模型的 decode 下限。

课程问（第七篇 · 五、通关自测 · B. 跨篇综合，第 4 题）::

    第五篇那个 Qwen2.5-0.5B merge_and_unload 后部署在 H100 上，batch 1 decode 每 token
    的下限约多少？合并前后这个数字变不变？

前一半用模型与卡的公式作答，后一半在一个很小的模型上真的做一次合并。

评分器测什么：你给的下限在抽取的模型与卡上、以及课程的例子上；你合并后的模型，载入评分器自己的一个
普通基座模型并在那里运行，与未合并的 LoRA 模型的 logits 相比。

学习：第六篇 · 必记；第五篇 · 必记；第四篇 · 必记。

English
-------

B4 — the decode floor of a merged LoRA model.

The course asks (第七篇 · 五、通关自测 · B. 跨篇综合, question 4)::

    第五篇那个 Qwen2.5-0.5B merge_and_unload 后部署在 H100 上，batch 1 decode 每 token
    的下限约多少？合并前后这个数字变不变？

    Part 5's Qwen2.5-0.5B, after merge_and_unload, served on an H100: what is the lower bound
    of a batch-1 decode step per token, roughly? Does the number change between before and
    after the merge?

Answer the first half as a formula of the model and the card, the second by doing the merge for
real on a tiny model.

What the grader measures: your floor on drawn models and cards and on the course's; your merged
model, loaded into a plain base model of the grader's own and run there, against the unmerged
LoRA model's logits.

Study: 第六篇 · 必记 / part 6, must-remember; 第五篇 · 必记 / part 5, must-remember;
第四篇 · 必记 / part 4, must-remember.
"""


def decode_floor_ms(n_params: int, bytes_per_param: float, peak_tflops: float, bandwidth_tb_s: float) -> float:
    """batch 1 时一步 decode 每个 token 的下限，以毫秒计。

    参数：
        n_params: 部署的模型的参数量，int。
        bytes_per_param: 一个存储的权重的字节数。
        peak_tflops: 卡的峰值算力，以 TFLOPS 计（1e12 FLOP/s）。
        bandwidth_tb_s: 显存带宽，以 TB/s 计（十进制：1 TB/s = 1e12 bytes/s）。

    返回：
        float，以 ms 计。

    出处：第六篇 · 必记；第七篇 · B. 跨篇综合（第 4 题）。

    English
    -------

    The lower bound of one batch-1 decode step, per token, in milliseconds.

    Args:
        n_params: parameters of the model that is served, an int.
        bytes_per_param: bytes of one stored weight.
        peak_tflops: the card's peak compute in TFLOPS (1e12 FLOP/s).
        bandwidth_tb_s: memory bandwidth in TB/s (decimal: 1 TB/s = 1e12 bytes/s).

    Returns:
        A float, in ms.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · B. 跨篇综合 / part 7, §五.B q4.
    """
    raise NotImplementedError("B4: decode_floor_ms")


def merge_lora(peft_model):
    """要部署的模型：一个 adapter 已并入基座权重的 peft LoRA 模型。

    参数：
        peft_model: 一个 ``peft.PeftModel``（检查里是一个很小的随机 Llama，在它的 linear 层上加了
            LoRA，adapter 权重非零）。

    返回：
        一个普通的 ``transformers`` 模型，不再有 LoRA 模块，同样 config 的普通基座模型能严格载入它的
        state dict（评分器就这样运行它）。测的是：它的 logits 与未合并的模型相比（float32，atol 1e-5）。

    出处：第五篇 · 必记；第七篇 · B. 跨篇综合（第 4 题）。

    English
    -------

    The model to serve: a peft LoRA model with its adapters folded into the base weights.

    Args:
        peft_model: a ``peft.PeftModel`` (in the check: a tiny random Llama with LoRA on its
            linear layers and non-zero adapter weights).

    Returns:
        A plain ``transformers`` model, no LoRA modules left, whose state dict a plain base model
        of the same config loads strictly (the grader runs it that way). Measured: its logits
        against the unmerged model's (float32, atol 1e-5).

    Source: 第五篇 · 必记 / part 5, must-remember; 第七篇 · B. 跨篇综合 / part 7, §五.B q4.
    """
    raise NotImplementedError("B4: merge_lora")
