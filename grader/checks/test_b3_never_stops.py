"""B3 — the model answers but never stops: where to look. Ground truth computed here with
SmolLM2's real tokenizer (grader.given.smollm) and P4's reference data path (grader.checks.truth.sft):

* padded_batch_labels: the learner's ``build_labels`` on real right-padded batches (pad id = EOS
  or not) against ``grader.checks.truth.sft.reference_batch`` labels (prompt and padding -100, answer and EOS kept);
* collator_diagnosis: real batches whose labels were produced by the reference or by one of two
  real buggy collators (mask by pad id with pad = EOS; EOS label dropped); the positions of the
  masked EOS tokens are known here by construction and compared with the learner's list.
"""

import torch
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import expect_equal, fail
from grader.checks.truth import sft as truth
from grader.given import sft
from grader.i18n import _


def _batch(tokenizer, pairs, pad_is_eos):
    eos = sft.eos_id(tokenizer)
    pad = eos if pad_is_eos else tokenizer.pad_token_id
    examples = [truth.reference_example(tokenizer, q, a, eos) for q, a in pairs]
    batch = truth.reference_batch(examples, pad)
    prompt_lens = [e["labels"].count(truth.IGNORE_INDEX) for e in examples]
    lengths = [len(e["input_ids"]) for e in examples]
    return batch, prompt_lens, lengths, eos, pad


@settings(max_examples=20)
@given(strategies.qa_batches(), st.booleans())
def test_padded_batch_labels(learner, tokenizer, pairs, pad_is_eos):
    batch, prompt_lens, lengths, eos, pad = _batch(tokenizer, pairs, pad_is_eos)
    got = learner.build_labels(batch["input_ids"], prompt_lens, lengths)
    if not isinstance(got, torch.Tensor) or tuple(got.shape) != tuple(batch["labels"].shape):
        fail(
            "build_labels(...)",
            _("a torch.long tensor of shape {shape}", shape=tuple(batch["labels"].shape)),
            f"{type(got).__name__} {tuple(getattr(got, 'shape', ()))}",
        )
    rows = torch.arange(len(pairs))
    at_eos = got[rows, torch.tensor(lengths) - 1]
    if not torch.all(at_eos == eos):
        i = int((at_eos != eos).nonzero()[0])
        fail(
            _(
                "build_labels: row {i} (prompt {prompt_lens} tokens, length {lengths}, pad id {pad}, EOS id {eos})",
                i=i,
                prompt_lens=prompt_lens[i],
                lengths=lengths[i],
                pad=pad,
                eos=eos,
            ),
            _("{eos} at position {value}", eos=eos, value=lengths[i] - 1),
            int(at_eos[i]),
            _(
                "decide by position (lengths), never by token id: with pad = EOS, "
                "masking 'input_ids == pad' masks every real EOS and the model never "
                "learns to stop"
            ),
        )
    if not torch.equal(got.long(), batch["labels"]):
        i = int((got != batch["labels"]).any(1).nonzero()[0])
        fail(
            _(
                "labels of row {i} (prompt {prompt_lens} tokens, length {lengths}, pad id {pad})",
                i=i,
                prompt_lens=prompt_lens[i],
                lengths=lengths[i],
                pad=pad,
            ),
            batch["labels"][i].tolist(),
            got[i].tolist(),
            _("-100 on the prompt and the padding, ids elsewhere"),
        )


@settings(max_examples=20)
@given(
    strategies.qa_batches(min_size=2),
    st.booleans(),
    st.sampled_from(["none", "pad_by_id", "drop_eos"]),
    st.sets(st.integers(0, 4)),
)
def test_collator_diagnosis(learner, tokenizer, pairs, pad_is_eos, bug, rows_hit):
    batch, _ids, lengths, eos, pad = _batch(tokenizer, pairs, pad_is_eos)
    hit = {i for i in rows_hit if i < len(pairs)}
    labels, expected = truth.buggy_collator_labels(batch, lengths, eos, pad, bug, hit)
    got = learner.suspect_positions(batch["input_ids"], batch["attention_mask"], labels, eos)
    try:
        got = sorted((int(i), int(j)) for i, j in got)
    except (TypeError, ValueError):
        fail("suspect_positions(...)", _("a list of (row, position) pairs"), got)
    expect_equal(
        got,
        expected,
        _(
            "suspect_positions on a batch (pad id {pad}, EOS id {eos}, row lengths {lengths})",
            pad=pad,
            eos=eos,
            lengths=lengths,
        ),
        hint=_(
            "the batch's labels came from {value}; real tokens only (attention mask "
            "1) whose id is EOS and whose label leaves them out of the loss",
            value="the reference" if bug == "none" else "a collator with the bug " + repr(bug),
        ),
    )
