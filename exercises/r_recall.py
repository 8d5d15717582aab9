"""R — 回忆：六篇的数字与结论，闭卷。

课程问（第七篇 · 开篇）::

    哪些数字与结论必须能脱口而出？

一张答题卡。下面每个函数问其中一项，以一个值或一个小公式的形式，这样评分器检查的是你的答案的意思，而不是
它的写法：公式在抽取的输入上求值，einsum 字符串在随机数组上运行，名字按意思匹配。

单位：FLOP/s 和 bytes/s 是普通的数（一个 "2 TFLOPS" 的设备是 ``2e12``）；以 ``_ms`` 结尾的名字返回毫秒；
显存以字节计；loss 以 nat 计；准确率是 [0, 1] 内的小数（0.42，不是 42）。

评分器测什么：每个答案与由真实的库（torch、numpy、transformers）算出的真值相比，在课程自己的例子和抽取的
例子上。反馈会指出去哪里重读；值本身只在多次答错之后（或用 ``--reveal``）才显示。

学习：第七篇 · 二、逐篇回顾（必记）。

English
-------

R — recall: the numbers and conclusions of the six parts, closed book.

The course asks (第七篇 · 开篇)::

    哪些数字与结论必须能脱口而出？

    Which numbers and conclusions must you be able to say without thinking?

One answer sheet. Each function below asks for one of them, as a value or a small formula, so
that the grader can check what your answer means rather than how it is spelled: formulas are
evaluated on drawn inputs, einsum strings are run on random arrays, names are matched by meaning.

Units: FLOP/s and bytes/s are plain numbers (a "2 TFLOPS" device is ``2e12``); a name ending in
``_ms`` returns milliseconds; memory is in bytes; losses are in nats; accuracies are fractions in
[0, 1] (0.42, not 42).

What the grader measures: every answer against ground truth computed from the real libraries
(torch, numpy, transformers), on the course's own cases and on drawn ones. The feedback names
where to re-read; the value itself is shown only after repeated misses (or ``--reveal``).

Study: 第七篇 · 二、逐篇回顾 (each part's 必记) / part 7, §二: every part's must-remember list.
"""

# part_of_topic 会被问到的主题：TOPICS 是英文写法，TOPICS_ZH 是每个主题的中文写法（与评分器共用）
# The topics part_of_topic is asked about: TOPICS in English, TOPICS_ZH each one's Chinese (shared with the grader).
from grader.given.recall_topics import TOPICS, TOPICS_ZH  # noqa: F401


def bytes_per_param_parts() -> dict[str, int]:
    """在 bf16 混合精度加 AdamW 的训练中，一个可训练参数逐部分花费多少字节？

    返回：
        一个 dict，从训练状态每个部分的名字映射到它每个参数的字节数，每部分一项，值为 int。每部分用
        课程的说法命名，中文或英文，或常见的同义词（评分器按意思匹配名字）。课程把两个部分合在一起说的
        地方（它的“AdamW 两个矩”），一项可以合起来命名这两个部分：它的值就是两者字节数之和。激活不在
        这笔账里。“bf16 混合精度”可以按课程使用这个词的任一种读法理解（第三篇对机制的读法，第四篇对显存
        的算法）：两者都接受。

    测的是：每部分的字节数与 torch 为它保存的张量的元素大小相比，以及它们的和。

    出处：第四篇 · 必记。

    English
    -------

    How many bytes does one trainable parameter cost in training with bf16 mixed precision
    and AdamW, part by part?

    Returns:
        A dict from the name of each part of the training state to its bytes per parameter,
        one entry per part, values ints. Name each part in the course's words, Chinese or English, or a
        common synonym (the grader matches names by meaning). One entry may name two parts together
        where the course does (its "AdamW 两个矩"): its value is then the bytes of both. Activations
        are not part of this account. "bf16 mixed precision" may be read either way the course uses
        the words (part 3's reading of the mechanism, part 4's account of the memory): both are
        accepted.

    Measured: each part's bytes against the element size of the tensor torch keeps for it, and
    their sum.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("R: bytes_per_param_parts")


def ridge_point(peak_flops: float, bandwidth_bytes_per_s: float) -> float:
    """一个有这样峰值算力和这样显存带宽的加速器的 roofline 拐点（ridge point）。

    参数：
        peak_flops: 峰值算力，以 FLOP/s 计。
        bandwidth_bytes_per_s: 显存带宽，以 bytes/s 计。

    返回：
        拐点，以每字节的 FLOP 数计，float。

    测的是：在抽取的加速器和课程的卡上。

    出处：第六篇 · 必记。

    English
    -------

    The ridge point of the roofline of an accelerator with this peak compute and this memory
    bandwidth.

    Args:
        peak_flops: peak compute, in FLOP/s.
        bandwidth_bytes_per_s: memory bandwidth, in bytes/s.

    Returns:
        The ridge point, in FLOP per byte, as a float.

    Measured: on drawn accelerators and on the course's card.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("R: ridge_point")


def decode_floor_ms(n_params: float, bytes_per_param: float, peak_flops: float, bandwidth_bytes_per_s: float) -> float:
    """一个 dense 模型一步 decode（batch 1：一个新 token）的时间下限，以毫秒计。

    参数：
        n_params: 模型参数个数。
        bytes_per_param: 一个存储的权重的字节数。
        peak_flops: 峰值算力，以 FLOP/s 计。
        bandwidth_bytes_per_s: 显存带宽，以 bytes/s 计。

    返回：
        每个 token 的毫秒数，float。

    测的是：在抽取的模型和加速器上，以及课程的模型和卡上。

    出处：第六篇 · 必记。

    English
    -------

    The lower bound on the time of one decode step (batch 1: one new token) of a dense
    model, in milliseconds.

    Args:
        n_params: number of model parameters.
        bytes_per_param: bytes of one stored weight.
        peak_flops: peak compute, in FLOP/s.
        bandwidth_bytes_per_s: memory bandwidth, in bytes/s.

    Returns:
        Milliseconds per token, as a float.

    Measured: on drawn models and accelerators, and on the course's model and card.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("R: decode_floor_ms")


def kv_cache_bytes_per_token(
    n_layers: int, n_heads: int, n_kv_heads: int, head_dim: int, bytes_per_element: int
) -> int:
    """一个 token 在 decoder-only transformer 的所有层上占用的 KV cache 字节数。

    参数：
        n_layers: config 的 ``num_hidden_layers``。
        n_heads: ``num_attention_heads``。
        n_kv_heads: ``num_key_value_heads``。
        head_dim: 一个 attention head 的大小。
        bytes_per_element: 一个缓存的数的字节数。

    返回：
        每个 token 的字节数，int。

    测的是：与真实的 transformers ``DynamicCache`` 保存的张量相比，在抽取的 config 和课程的模型上。

    出处：第六篇 · 必记。

    English
    -------

    Bytes of KV cache that one token occupies, over all layers of a decoder-only transformer.

    Args:
        n_layers: ``num_hidden_layers`` of the config.
        n_heads: ``num_attention_heads``.
        n_kv_heads: ``num_key_value_heads``.
        head_dim: the size of one attention head.
        bytes_per_element: bytes of one cached number.

    Returns:
        Bytes per token, as an int.

    Measured: against the tensors a real transformers ``DynamicCache`` holds, for drawn configs
    and for the course's model.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("R: kv_cache_bytes_per_token")


def first_step_loss(vocab_size: int) -> float:
    """一个词表有 ``vocab_size`` 个 token 的刚初始化的语言模型，在第一步训练时你应当看到的交叉熵 loss。

    参数：
        vocab_size: V，int，>= 2。

    返回：
        loss，以 nat 计（``F.cross_entropy`` 报告的单位），float。

    测的是：在抽取的 V 和课程的词表上。

    出处：第三篇 · 必记。

    English
    -------

    The cross-entropy loss you should see at the first training step of a freshly initialised
    language model whose vocabulary has ``vocab_size`` tokens.

    Args:
        vocab_size: V, an int >= 2.

    Returns:
        The loss, in nats (the unit ``F.cross_entropy`` reports), as a float.

    Measured: on drawn V and on the course's vocabulary.

    Source: 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("R: first_step_loss")


def ignore_index() -> int:
    """让一个位置不计入交叉熵 loss 的 label 值（SFT 的 loss mask）。

    返回：
        这个值，int。

    测的是：这个值，以及设为它的 labels 真的不计入 loss。

    出处：第三篇 · 必记；第五篇 · 必记。

    English
    -------

    The label value that takes a position out of the cross-entropy loss (the SFT loss mask).

    Returns:
        The value, as an int.

    Measured: that value, and that labels set to it really drop out of the loss.

    Source: 第三篇 · 必记 / part 3, must-remember; 第五篇 · 必记 / part 5, must-remember.
    """
    raise NotImplementedError("R: ignore_index")


def einsum_qk(with_heads: bool = False) -> str:
    """attention 分数 Q Kᵀ 的 ``np.einsum`` / ``torch.einsum`` 下标。

    参数：
        with_heads: False：Q 为 ``(batch, T, d)``，K 为 ``(batch, S, d)``，分数为
            ``(batch, T, S)``。True：Q 为 ``(batch, heads, T, d)``，K 为
            ``(batch, heads, S, d)``，分数为 ``(batch, heads, T, S)``。

    返回：
        下标字符串；用什么字母都可以。

    测的是：``np.einsum(subscripts, Q, K)`` 与 ``Q @ Kᵀ`` 在随机数组上相比。

    出处：第二篇 · 必记。

    English
    -------

    The ``np.einsum`` / ``torch.einsum`` subscripts of the attention scores Q Kᵀ.

    Args:
        with_heads: False: Q is ``(batch, T, d)``, K is ``(batch, S, d)``, the scores are
            ``(batch, T, S)``. True: Q is ``(batch, heads, T, d)``, K is
            ``(batch, heads, S, d)``, the scores are ``(batch, heads, T, S)``.

    Returns:
        The subscripts string; any letters will do.

    Measured: ``np.einsum(subscripts, Q, K)`` against ``Q @ Kᵀ`` on random arrays.

    Source: 第二篇 · 必记 / part 2, must-remember.
    """
    raise NotImplementedError("R: einsum_qk")


def einsum_pv(with_heads: bool = False) -> str:
    """attention 输出 P V 的 ``np.einsum`` / ``torch.einsum`` 下标。

    参数：
        with_heads: False：P（softmax 之后的分数）为 ``(batch, T, S)``，V 为 ``(batch, S, d)``，
            输出为 ``(batch, T, d)``。True：P 为 ``(batch, heads, T, S)``，V 为
            ``(batch, heads, S, d)``，输出为 ``(batch, heads, T, d)``。

    返回：
        下标字符串；用什么字母都可以。

    测的是：``np.einsum(subscripts, P, V)`` 与 ``P @ V`` 在随机数组上相比。

    出处：第二篇 · 必记。

    English
    -------

    The ``np.einsum`` / ``torch.einsum`` subscripts of the attention output P V.

    Args:
        with_heads: False: P (the softmaxed scores) is ``(batch, T, S)``, V is ``(batch, S, d)``,
            the output is ``(batch, T, d)``. True: P is ``(batch, heads, T, S)``, V is
            ``(batch, heads, S, d)``, the output is ``(batch, heads, T, d)``.

    Returns:
        The subscripts string; any letters will do.

    Measured: ``np.einsum(subscripts, P, V)`` against ``P @ V`` on random arrays.

    Source: 第二篇 · 必记 / part 2, must-remember.
    """
    raise NotImplementedError("R: einsum_pv")


def ci95_half_width(p: float, n: int) -> float:
    """一个准确率的 95% 置信区间的半宽，按课程的算法。

    参数：
        p: 测得的准确率，[0, 1] 内的小数。
        n: 评测的题目数，n >= 1。

    返回：
        半宽，与 ``p`` 一样是小数（区间为 ``p ± half_width``）。

    测的是：在抽取的准确率和集合大小上。

    出处：第二篇 · 必记。

    English
    -------

    The half-width of the 95% confidence interval of an accuracy, as the course computes it.

    Args:
        p: the measured accuracy, a fraction in [0, 1].
        n: the number of evaluated problems, n >= 1.

    Returns:
        The half-width, a fraction like ``p`` (the interval is ``p ± half_width``).

    Measured: on drawn accuracies and set sizes.

    Source: 第二篇 · 必记 / part 2, must-remember.
    """
    raise NotImplementedError("R: ci95_half_width")


def thread_speedup(n_threads: int, n_cores: int) -> float:
    """CPU 密集的纯 Python 工作（对字符串的 Python 循环，没有 I/O），分到一个标准 CPython 进程的 ``n_threads``
    个线程上、在一台有 ``n_cores`` 个核的机器上运行时，快多少倍。

    参数：
        n_threads: 使用的线程数，>= 1。
        n_cores: 机器的 CPU 核数，>= 1。

    返回：
        串行时间 / 多线程时间，float（大致）。

    测的是：在抽取的线程数和核数上，在一个容差之内。

    出处：第一篇 · 必记。

    English
    -------

    How much faster CPU-bound pure-Python work (a Python loop over strings, no I/O) runs when
    it is split over ``n_threads`` threads of one standard CPython process, on a machine with
    ``n_cores`` cores.

    Args:
        n_threads: threads used, >= 1.
        n_cores: CPU cores of the machine, >= 1.

    Returns:
        serial time / threaded time, as a float (roughly).

    Measured: for drawn numbers of threads and cores, within a tolerance.

    Source: 第一篇 · 必记 / part 1, must-remember.
    """
    raise NotImplementedError("R: thread_speedup")


def part_of_topic(topic: str) -> int:
    """系列的哪一篇讲这个主题？

    参数：
        topic: ``TOPICS``（本模块）中的一个主题，两种写法之一：它在 ``TOPICS`` 中的英文字符串，或它的
            中文字符串，即 ``TOPICS_ZH`` 为那个英文字符串给出的值；拼写与那里完全一致。

    返回：
        那一篇的编号，1 到 6 的 int。

    测的是：``TOPICS`` 的每一个主题，两种写法各问一次。你的函数可以只认其中一种写法：对不认识的写法，
    它抛出 KeyError 或返回 None。它给出的每个答案都必须是该主题所在的那一篇，而且每个主题至少要有一个答案。

    出处：第七篇 · 一、总览：系列回答的问题与主线。

    English
    -------

    Which part of the series teaches this topic?

    Args:
        topic: a topic of ``TOPICS`` (this module), in either spelling: its English string in
            ``TOPICS``, or its Chinese string, the value ``TOPICS_ZH`` maps that English string to;
            spelled exactly as there.

    Returns:
        The part's number, an int from 1 to 6.

    Measured: every topic of ``TOPICS``, asked once in each spelling. Your function may know only
    one of them: for a spelling it does not know it raises KeyError or returns None. Every answer
    it gives must be the topic's part, and each topic needs at least one answer.

    Source: 第七篇 · 一、总览：系列回答的问题与主线 / part 7, §一, the table of the six parts.
    """
    raise NotImplementedError("R: part_of_topic")


def run_record_items() -> list[str]:
    """一次运行的最小记录的各项，即让一个实验三个月后能复现的那份记录。

    返回：
        简短名字组成的 list，每项一个，顺序不限，用课程的说法，中文或英文，或常见的同义词；名字按意思
        匹配（同一项的两种写法算作这一项两次）。

    测的是：项的集合：不缺、不多、不重复。

    出处：第六篇 · 必记。

    English
    -------

    The items of the minimal record of one run, the one that makes an experiment
    reproducible three months later.

    Returns:
        A list of short names, one per item, in any order, in the course's words, Chinese or
        English, or a common synonym; names are matched by meaning (two spellings of the same
        item count as that item, twice).

    Measured: the set of items: none missing, none extra, none named twice.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("R: run_record_items")
