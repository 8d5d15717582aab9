"""C4 — CUDA out of memory：是哪一块？

课程问（第七篇 · 五、通关自测 · C. 面试题，第 4 题）::

    CUDA out of memory，你怎么定位落在哪一块？

用代码作答；然后是追问方向。显存的各块按下面的名字称呼；所有大小都是字节数（int）。

评分器测什么：你的各块与真实张量的字节数相比（一个带 peft LoRA 和 AdamW、做过一步的小模型，按课程的
bf16 混合精度约定搭好，以及按 peft 自己在 bf16 模型上的默认设置：两种读法都算通过）；你对抽取的 OOM
事件和课程的事件的归属判断；你的补救办法与各自缩小的那一块相比；你的 KV cache 与真实的
``DynamicCache`` 相比；你在抽取的 config 和课程的模型上的估算。

学习：第四篇 · 必记；第六篇 · 结论（显存四块）；第七篇 · C. 面试题（第 4 题）。

English
-------

C4 — CUDA out of memory: which block is it?

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 4)::

    CUDA out of memory，你怎么定位落在哪一块？

    CUDA out of memory: how do you find which block it falls in?

Answer it as code; then the follow-up directions. The blocks of GPU memory are named as below;
all sizes are bytes (ints).

What the grader measures: your blocks against the bytes of real tensors (a small model with
peft LoRA and AdamW after one step, set up as the course's bf16 mixed-precision convention has it,
and as peft's own defaults leave it on a bf16 model: either reading passes); your attribution on drawn OOM events and
the course's; your remedies against the block each one shrinks; your KV cache against a real
``DynamicCache``; your estimate on drawn configs and the course's model.

Study: 第四篇 · 必记 / part 4, must-remember; 第六篇 · 结论 (显存四块) / part 6, conclusion;
第七篇 · C. 面试题 / part 7, §五.C q4.
"""

BLOCKS = ("weights", "grads_and_state", "activations", "kv_cache")

# ``remedies`` 可以给出的补救办法 / the remedies ``remedies`` may name.
REMEDIES = (
    "bf16",
    "quantize",
    "more_gpus",
    "lora",
    "fsdp",
    "8bit_optimizer",
    "gradient_checkpointing",
    "smaller_batch_with_accumulation",
    "shorter_sequences",
    "fewer_concurrent_requests",
    "no_grad",
)


def memory_blocks(n_frozen: int, n_trainable: int, activation_bytes: int, kv_cache_bytes: int) -> dict[str, int]:
    """bf16 混合精度加 AdamW 下每一块的字节数：课程的约定，或 peft 在 bf16 模型上的默认（两者都接受）。

    参数：
        n_frozen: 不训练的参数（例如 LoRA 的基座）；n_trainable: 训练的参数。
        activation_bytes, kv_cache_bytes: 这两块的大小，原样传递。

    返回：
        一个 dict，键恰好是 ``BLOCKS`` 的键，每个值是字节数，普通的 int。

    出处：第四篇 · 必记；第六篇 · 结论。

    English
    -------

    Bytes of each block, under bf16 mixed precision with AdamW: the course's convention, or peft's
    default on a bf16 model (both are accepted).

    Args:
        n_frozen: parameters that do not train (e.g. a LoRA base); n_trainable: those that do.
        activation_bytes, kv_cache_bytes: the sizes of those two blocks, passed through.

    Returns:
        A dict with exactly the keys of ``BLOCKS``, each a plain int of bytes.

    Source: 第四篇 · 必记 / part 4, must-remember; 第六篇 · 结论 / part 6, conclusion.
    """
    raise NotImplementedError("C4: memory_blocks")


def attribute_oom(event: dict) -> str:
    """一次 OOM 指向的那一块。

    参数：
        event: ``{"when": ..., "training": bool, "lora": bool, "no_grad": bool}``，其中 ``when``
            是 ``"load"``（加载模型时）、``"first_backward"``（训练的第一次 backward / step）、
            ``"longer_sequence"``（只在提高序列长度或上下文之后）或 ``"generation"``（生成时）。
            ``training``：这个进程是一次训练（模型处于 train 模式、设好了优化器；在训练步之间生成样本
            也属于这种情况），推理进程为 False。``lora``：使用 LoRA adapter（基座冻结）。
            ``no_grad``：生成在 ``torch.no_grad()`` 下运行。

    返回：
        ``BLOCKS`` 之一。

    出处：第四篇 · 必记；第七篇 · C. 面试题（第 4 题）。

    English
    -------

    The block an OOM points to.

    Args:
        event: ``{"when": ..., "training": bool, "lora": bool, "no_grad": bool}`` where ``when`` is
            ``"load"`` (while loading the model), ``"first_backward"`` (the first backward / step
            of training), ``"longer_sequence"`` (only after raising the sequence length or the
            context) or ``"generation"`` (while generating). ``training``: the process is a
            training run (the model in train mode, an optimizer set up; generating samples between
            training steps is such a case), False for an inference process. ``lora``: LoRA adapters
            are used (base frozen). ``no_grad``: generation runs under ``torch.no_grad()``.

    Returns:
        One of ``BLOCKS``.

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q4.
    """
    raise NotImplementedError("C4: attribute_oom")


def remedies(block: str) -> list[str]:
    """能缩小这一块的补救办法（名字取自 ``REMEDIES``）：一个非空 list，其中每一个都真的能缩小它。

    对未知的块抛出 ValueError。出处：第七篇 · C. 面试题（第 4 题）。

    English
    -------

    The remedies (names from ``REMEDIES``) that shrink this block: a non-empty list, each of
    which really shrinks it.

    Raises ValueError for an unknown block. Source: 第七篇 · C. 面试题 / part 7, §五.C q4.
    """
    raise NotImplementedError("C4: remedies")


def max_batch_that_fits(fixed_bytes: int, activation_bytes_per_sample: int, gpu_bytes: int) -> int:
    """当 ``fixed_bytes`` 与 batch 无关、每个样本增加 ``activation_bytes_per_sample``（> 0）时，GPU 上放得下的
    最大 batch size（int，>= 0）。

    出处：第七篇 · C. 面试题（"好答案"）（第 4 题）。

    English
    -------

    The largest batch size (an int >= 0) that fits on the GPU, when ``fixed_bytes`` do not
    depend on the batch and every sample adds ``activation_bytes_per_sample`` (> 0).

    Source: 第七篇 · C. 面试题 / part 7, §五.C q4 ("好答案").
    """
    raise NotImplementedError("C4: max_batch_that_fits")


def kv_cache_bytes(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """追问：使用 grouped-query attention 的 decoder 的 KV cache 字节数。

    参数：
        config: 普通 dict，含 ``num_hidden_layers``、``num_attention_heads``、
            ``num_key_value_heads``、``hidden_size`` 和 ``head_dim``（可能为 None：这时为
            ``hidden_size // num_attention_heads``）。
        batch_size, seq_len: 请求数和每个请求的 token 数；bytes_per_element: 一个数的字节数。

    返回 int，与真实的 transformers ``DynamicCache`` 相比。
    出处：第六篇 · 必记；第七篇 · C. 面试题（追问方向）（第 4 题）。

    English
    -------

    Follow-up: KV-cache bytes of a decoder with grouped-query attention.

    Args:
        config: a plain dict with ``num_hidden_layers``, ``num_attention_heads``,
            ``num_key_value_heads``, ``hidden_size`` and ``head_dim`` (may be None: then
            ``hidden_size // num_attention_heads``).
        batch_size, seq_len: requests and tokens each; bytes_per_element: bytes of one number.

    Returns an int, measured against a real transformers ``DynamicCache``.
    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q4.
    """
    raise NotImplementedError("C4: kv_cache_bytes")


def activation_bytes_estimate(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """追问：不开 checkpointing 时的激活，按课程的经验法则（课程给 Llama-3-8B 在 B = 1、T = 4096 时的数字背后
    的那条）。

    参数：
        config: Llama 式的 config，普通 dict（``hidden_size``、``intermediate_size``、
            ``num_hidden_layers``、……）。batch_size, seq_len, bytes_per_element: B、T、字节数。

    返回 int。出处：第七篇 · C. 面试题（追问方向）（第 4 题）；第四篇 · 必记。

    English
    -------

    Follow-up: the activations without checkpointing, by the course's rule of thumb (the one
    behind its figure for Llama-3-8B at B = 1, T = 4096).

    Args:
        config: a Llama-style config as a plain dict (``hidden_size``, ``intermediate_size``,
            ``num_hidden_layers``, ...). batch_size, seq_len, bytes_per_element: B, T, bytes.

    Returns an int. Source: 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q4; 第四篇 · 必记 / part 4.
    """
    raise NotImplementedError("C4: activation_bytes_estimate")
