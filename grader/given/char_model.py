"""课程的字符级 Transformer 及其语料，给学习者用（P2）。

第三篇用那个二十行的循环训练这个模型：词表 128（ASCII 字节），4 层，``n_embd`` 128，4 个头，
``block_size`` 128（共 ``N_PARAMS`` 个参数）。命名沿用 nanoGPT（``n_layer``、``n_head``、``n_embd``、
``block_size``；``wte``、``wpe``、``ln_f``、``lm_head``）。

- 可学习的 token 嵌入和位置嵌入，一个不与嵌入共享、不带 bias 的 LM head；
- 每个 block：``ln_1`` -> 因果自注意力（``c_attn`` 和 ``c_proj`` 不带 bias）->
  ``ln_2`` -> MLP（``c_fc`` 宽 4 倍，GELU，``c_proj``，两者都带 bias）；pre-norm 残差；
- 最后一个 LayerNorm ``ln_f``；权重和 bias 按 PyTorch 自己的模块初始化
  （``nn.Linear``、``nn.Embedding``、``nn.LayerNorm``：没有自定义初始化）。

语料是生成的，不是下载的：:func:`make_corpus` 写出确定的、像英文的 ASCII 文本（同一个 seed，
每台机器上都是同样的文本）。这样用::

    from grader.given.char_model import GPT, GPTConfig, make_corpus, encode, get_batch
    torch.manual_seed(0)
    model = GPT(GPTConfig())
    data = encode(make_corpus(200_000, seed=0))        # 字节值组成的 LongTensor，每个 < 128
    x, y = get_batch(data, 16, 128, torch.Generator().manual_seed(0))   # 各为 (16, 128)
    logits = model(x)                                   # (16, 128, 128) float32

English
-------

The course's character-level Transformer and its corpus, given to the learner (P2).

Part 3 trains this model with the twenty-line loop: vocabulary 128 (ASCII bytes), 4 layers,
``n_embd`` 128, 4 heads, ``block_size`` 128 (``N_PARAMS`` parameters). Names follow nanoGPT
(``n_layer``, ``n_head``, ``n_embd``, ``block_size``; ``wte``, ``wpe``, ``ln_f``, ``lm_head``).

- learned token and position embeddings, an untied LM head without bias;
- per block: ``ln_1`` -> causal self-attention (``c_attn`` and ``c_proj`` without bias) ->
  ``ln_2`` -> MLP (``c_fc`` 4x wide, GELU, ``c_proj``, both with bias); pre-norm residuals;
- a final LayerNorm ``ln_f``; weights and biases as PyTorch's own modules initialise them
  (``nn.Linear``, ``nn.Embedding``, ``nn.LayerNorm``: no custom initialisation).

The corpus is generated, not downloaded: :func:`make_corpus` writes deterministic English-like
ASCII text (same seed, same text on every machine). Use it like this::

    from grader.given.char_model import GPT, GPTConfig, make_corpus, encode, get_batch
    torch.manual_seed(0)
    model = GPT(GPTConfig())
    data = encode(make_corpus(200_000, seed=0))        # LongTensor of byte values < 128
    x, y = get_batch(data, 16, 128, torch.Generator().manual_seed(0))   # (16, 128) each
    logits = model(x)                                   # (16, 128, 128) float32
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from grader.given import said

# 第三篇对 GPTConfig() 报告的参数量 / what part 3 reports for GPTConfig(); tests/test_char_model.py counts it
N_PARAMS = 840_448


@dataclass
class GPTConfig:
    vocab_size: int = 128
    block_size: int = 128
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128


class CausalSelfAttention(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.n_head = config.n_head
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=False)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).reshape(B, T, C))


class MLP(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd)
        self.mlp = MLP(config)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    """``model(idx)``：LongTensor (B, T)，T <= block_size -> logits (B, T, vocab_size)。

    English
    -------

    ``model(idx)``: LongTensor (B, T) with T <= block_size -> logits (B, T, vocab_size).
    """

    def __init__(self, config: GPTConfig | None = None):
        super().__init__()
        self.config = config = config or GPTConfig()
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.block_size, config.n_embd)
        self.h = nn.ModuleList(Block(config) for _ in range(config.n_layer))
        self.ln_f = nn.LayerNorm(config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx):
        T = idx.shape[1]
        if T > self.config.block_size:
            raise ValueError(said.TOO_LONG.format(n=T, block_size=self.config.block_size))
        pos = torch.arange(T, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def build_model(seed: int, config: GPTConfig | None = None) -> GPT:
    """先 ``torch.manual_seed(seed)`` 再 ``GPT(config)``：每台机器上权重都一样。

    English
    -------

    ``GPT(config)`` after ``torch.manual_seed(seed)``: the same weights on every machine.
    """
    torch.manual_seed(seed)
    return GPT(config)


# ---------------------------------------------------------------- 语料 / the corpus
_SUBJECTS = (
    "the model",
    "a tensor",
    "the optimizer",
    "my loop",
    "the gradient",
    "each batch",
    "the loss",
    "this layer",
    "the scheduler",
    "a token",
    "the learner",
    "our GPU",
    "the profiler",
    "every seed",
    "the cache",
    "a worker",
)
_VERBS = (
    "computes",
    "returns",
    "updates",
    "reads",
    "writes",
    "clips",
    "stores",
    "moves",
    "checks",
    "counts",
    "scales",
    "drops",
    "keeps",
    "loads",
    "saves",
    "needs",
)
_ADJECTIVES = (
    "small",
    "large",
    "fast",
    "slow",
    "new",
    "old",
    "first",
    "last",
    "random",
    "useful",
    "wrong",
    "right",
    "tiny",
    "full",
    "empty",
    "stable",
)
_NOUNS = (
    "value",
    "shape",
    "step",
    "record",
    "number",
    "answer",
    "memory",
    "block",
    "weight",
    "error",
    "window",
    "table",
    "file",
    "label",
    "result",
    "state",
)
_ENDINGS = (".", ".", ".", "!", "?", ";")


def make_corpus(n_chars: int, seed: int = 0) -> str:
    """确定的、像英文的 ASCII 文本，正好 ``n_chars`` 个字符。

    由固定词表拼成的句子，例如 ``"The loss reads 3 small values."``；每行几句。``random.Random(seed)``
    使它在每台机器上都一样；换一个 seed 就得到同类的新文本（检查在一个你没训练过的 seed 上验证）。

    English
    -------

    Deterministic English-like ASCII text of exactly ``n_chars`` characters.

    Sentences such as ``"The loss reads 3 small values."`` from fixed word lists; lines of a
    few sentences. ``random.Random(seed)`` makes it identical on every machine; another seed
    gives fresh text of the same kind (the check validates on a seed you did not train on).
    """
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < n_chars:
        line = []
        for _ in range(rng.randint(1, 4)):
            words = [rng.choice(_SUBJECTS), rng.choice(_VERBS)]
            if rng.random() < 0.4:
                words.append(str(rng.randint(2, 99)))
            elif rng.random() < 0.5:
                words.append("the")
            else:
                words.append("a")
            if rng.random() < 0.6:
                words.append(rng.choice(_ADJECTIVES))
            noun = rng.choice(_NOUNS)
            words.append(noun + ("s" if words[2].isdigit() else ""))
            sentence = " ".join(words)
            line.append(sentence[0].upper() + sentence[1:] + rng.choice(_ENDINGS))
        text = " ".join(line) + "\n"
        parts.append(text)
        size += len(text)
    return "".join(parts)[:n_chars]


def encode(text: str) -> torch.Tensor:
    """ASCII 文本 -> 字节值组成的 LongTensor（每个 < 128）；否则抛出 ValueError。

    English
    -------

    ASCII text -> LongTensor of byte values (each < 128); raises ValueError otherwise.
    """
    data = text.encode("ascii")
    return torch.tensor(list(data), dtype=torch.long)


def decode(ids) -> str:
    return bytes(int(i) for i in ids).decode("ascii")


def get_batch(data: torch.Tensor, batch_size: int, block_size: int, generator: torch.Generator):
    """``data`` 的随机窗口：输入 ``x`` (B, T)，目标 ``y`` = x 右移一位。

    English
    -------

    Random windows of ``data``: inputs ``x`` (B, T) and targets ``y`` = x shifted by one.
    """
    ix = torch.randint(len(data) - block_size - 1, (batch_size,), generator=generator)
    x = torch.stack([data[i : i + block_size] for i in ix.tolist()])
    y = torch.stack([data[i + 1 : i + 1 + block_size] for i in ix.tolist()])
    return x, y


@torch.no_grad()
def evaluate_loss(
    model: nn.Module, data: torch.Tensor, block_size: int = 128, batch_size: int = 32, max_windows: int = 64
) -> float:
    """``data`` 上连续窗口的平均交叉熵（每字符 nat），fp32。

    English
    -------

    Mean cross-entropy (nats per character) over consecutive windows of ``data``, fp32.
    """
    was_training = model.training
    model.eval()
    n = min(max_windows, (len(data) - 1) // block_size)
    starts = [i * block_size for i in range(n)]
    total, count = 0.0, 0
    for j in range(0, n, batch_size):
        ix = starts[j : j + batch_size]
        x = torch.stack([data[i : i + block_size] for i in ix])
        y = torch.stack([data[i + 1 : i + 1 + block_size] for i in ix])
        logits = model(x).float()
        total += float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), reduction="sum"))
        count += y.numel()
    model.train(was_training)
    return total / count


def perplexity(loss: float) -> float:
    return math.exp(loss)
