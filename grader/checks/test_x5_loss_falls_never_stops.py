"""X5 — loss falls while the model never stops. Ground truth re-measured here: SmolLM2-135M-
Instruct (grader.given.smollm) trained IN THIS PROCESS (grader.checks.truth.sft.train_and_answer)
with the reference data path and LoRA (grader.checks.truth.sft), every example passed through the
learner's ``mask_eos`` (its returned lists are the only thing of the learner's in the run); the
losses and the greedy held-out generations are judged here (grader.checks.truth.sft.judge). The
reference run (12 steps, EOS masked): loss 4.9 -> 0.0, 5/6 answered, 0/6 stopped; with EOS kept
(P4's reference) 6/6 stop. The learner's two judging functions are compared with this check's
rules on the real run and on drawn cases.

Contract paths: mask_eos on the real examples (EOS last) and on synthetic ones (EOS in the middle,
repeated, inside the prompt, another id, none), each synthetic one called in the learner's process
(grader/drivers/purity.py: the argument unchanged, a new dict (an unchanged list may be reused); what that driver
reports is only ever a reason to fail, and a mutation inside the learner's process changes no
value the check uses, since arguments cross as copies); loss_fell's Python
bool on the real run and drawn curves; stops on the real generations and drawn token lists.
"""

import pytest
from hypothesis import given, settings, strategies as st

from grader.checks.support.checking import as_number, expect_equal, fail
from grader.checks.truth import sft as truth
from grader.given import sft
from grader.i18n import _

MIN_ANSWERED, MAX_STOPPED = 4, 1  # reference 5/6 answered, 0/6 stopped, with margin
MAX_NEW_TOKENS = 8


@pytest.fixture(scope="module")
def run(learner, cache, tokenizer):
    """One training run shared by both key points (a failure here fails both): the reference
    examples through the learner's ``mask_eos`` (called from here: plain lists both ways), batched
    here, trained and decoded here (nothing of the run is the learner's to report)."""
    eos = sft.eos_id(tokenizer)
    pad = int(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos)
    mask_error = _mask_eos_contract(learner)  # synthetic examples: EOS inside, repeated, other ids
    examples, mismatch = [], None
    for q, a in sft.TRAIN_PAIRS:
        example = truth.reference_example(tokenizer, q, a, eos)
        masked = learner.mask_eos({k: list(v) for k, v in example.items()}, eos)
        if (
            type(masked) is not dict
            or sorted(masked) != ["input_ids", "labels"]
            or any(type(masked[k]) is not list or len(masked[k]) != len(example["input_ids"]) for k in masked)
        ):
            return {"error": f"mask_eos on {q!r} returned {str(masked)[:200]}"}
        masked = {k: [int(t) for t in masked[k]] for k in ("input_ids", "labels")}
        if mismatch is None and masked != _mask_eos_rule(example, eos):  # the training data is the rule's, exactly
            mismatch = (_("mask_eos on the training example {q}", q=repr(q)), _mask_eos_rule(example, eos), masked)
        examples.append(masked)
    out = {
        "eos_labels": sum(int(t == eos) for e in examples for t in e["labels"]),
        "mask_error": mask_error,
        "mismatch": mismatch,
    }
    if mask_error or mismatch or out["eos_labels"]:
        return out  # the key points fail on these: no run to spend
    batches = [
        truth.reference_batch([examples[i] for i in idx], pad)
        for idx in sft.batch_order(len(examples), sft.TRAIN_STEPS, sft.BATCH_SIZE, seed=0)
    ]
    out.update(
        truth.train_and_answer(
            batches, truth.lora_settings(), cache=cache, steps=sft.TRAIN_STEPS, seed=0, max_new_tokens=MAX_NEW_TOKENS
        )
    )
    return out


def _mask_eos_rule(example, eos_id):
    return {
        "input_ids": list(example["input_ids"]),
        "labels": [
            -100 if t == eos_id else label for t, label in zip(example["input_ids"], example["labels"], strict=True)
        ],
    }


def _mask_eos_contract(learner):
    """mask_eos on synthetic examples the real data never shows: EOS in the middle and repeated
    (packed rows), EOS inside the prompt, another EOS id, no EOS at all. Returns (what, expected)
    for the first that differs from the rule, or that changes its argument; None when all agree."""
    import random

    rng = random.Random(17)
    cases = [
        ({"input_ids": [5, 6, 0, 7, 8, 0], "labels": [-100, 6, 0, 7, 8, 0]}, 0),  # packed: EOS mid-answer
        ({"input_ids": [3, 2, 2, 4, 2], "labels": [-100, -100, 2, 4, 2]}, 2),  # EOS repeated, another id
        ({"input_ids": [5, 0, 6, 0], "labels": [-100, -100, 6, 0]}, 0),  # EOS in the prompt and at the end
        ({"input_ids": [5, 6, 7], "labels": [-100, 6, 7]}, 0),
    ]  # no EOS: nothing to mask
    for eos_id in (0, 2, 7):
        for _row in range(3):
            ids = [rng.choice([eos_id, 3, 4, 5, 9, 11]) for _ in range(rng.randint(2, 9))]
            cases.append(({"input_ids": ids, "labels": [-100] + ids[1:]}, eos_id))
    for example, eos_id in cases:
        # in the learner's process: an argument changed there never shows here
        out = learner.drive(
            "grader.drivers.purity:call_and_compare", "mask_eos", [{k: list(v) for k, v in example.items()}, eos_id]
        )
        got, want = out["result"], _mask_eos_rule(example, eos_id)
        what = f"mask_eos({example}, eos_id={eos_id})"
        if out["changed_args"] or out["returns_an_argument"]:
            return (
                _("{what} changed the example it was given", what=what)
                if out["changed_args"]
                else _("{what} returned the example it was given, not a new dict", what=what),
                _("the argument unchanged; a NEW dict returned"),
            )
        if type(got) is not dict or {k: list(v) for k, v in got.items()} != want:
            return _("{what} returned {got}", what=what, got=got), want
    return None


def _masked(run):
    if "error" in run:
        fail(
            _("training batches built from mask_eos's examples"), "{'input_ids': [...], 'labels': [...]}", run["error"]
        )
    if run.get("mask_error"):
        what, expected = run["mask_error"]
        fail(
            what,
            expected,
            _("something else"),
            _(
                "a new dict: the same input_ids, and labels with -100 at EVERY position "
                "whose input token is eos_id (not only the last); the argument left as "
                "it was"
            ),
        )
    if run["eos_labels"]:
        fail(
            _("EOS labels left in the training data after mask_eos"),
            0,
            run["eos_labels"],
            _("take every EOS position out of the loss (the label ignore index): that is the experiment"),
        )
    if run["mismatch"]:
        what, expected, got = run["mismatch"]
        fail(
            what,
            expected,
            got,
            _("the same input_ids; labels with -100 where the input token is eos_id, every other label as it was"),
        )


def _loss_rule(losses):
    """The premise on the real run: it clearly fell (no library decides "fell"; the stub states no
    rule, so the drawn curves below are clear-cut either way)."""
    last = losses[-3:]
    return sum(last) / len(last) < 0.5 * losses[0]


@st.composite
def loss_curves(draw):
    """(curve, fell): one that clearly fell (a noisy decline to its last 3 losses, below 0.3x the
    first: any sensible reading of "fell" agrees), or one that clearly did not (every loss within
    15% of the first: flat and noisy, its last step often below the first)."""
    first, n, fell = draw(st.floats(0.5, 12.0)), draw(st.integers(4, 30)), draw(st.booleans())
    if fell:
        k = n - 4
        middle = [first * (1 - 0.7 * (i + 1) / (k + 1)) * draw(st.floats(0.9, 1.1)) for i in range(k)]
        tail = [draw(st.floats(0.0, 0.3 * first)) for _ in range(3)]
    else:
        middle = [draw(st.floats(0.85 * first, 1.15 * first)) for _ in range(n - 4)]
        tail = [draw(st.floats(0.85 * first, 1.15 * first)) for _ in range(3)]
    return [first, *middle, *tail], fell


@settings(max_examples=30)
@given(loss_curves())
def test_loss_curve(learner, run, figure, drawn):
    _masked(run)
    losses = [as_number(x, _("a training loss")) for x in run["losses"]]
    if not _loss_rule(losses):
        fail(
            _("the loss with EOS masked ({losses} steps)", losses=len(losses)),
            _("a loss that clearly fell (the last 3 below half the first)"),
            [round(x, 3) for x in losses],
        )
    expect_equal(
        learner.loss_fell(losses), True, _("loss_fell on the real run {value}", value=[round(x, 3) for x in losses])
    )
    figure(
        kind="line",
        title="SFT loss with EOS masked",
        x_label="step",
        y_label="loss",
        series={"EOS masked": [[i, x] for i, x in enumerate(losses)]},
    )
    curve, fell = drawn
    expect_equal(
        learner.loss_fell(curve),
        fell,
        f"loss_fell({[round(x, 3) for x in curve]})",
        hint=_(
            "this curve {verdict}",
            verdict=_("clearly fell: its end is far below its start")
            if fell
            else _("did not fall: it stays around its first loss, whatever its last step"),
        ),
    )


@st.composite
def generations(draw):
    eos = draw(st.integers(0, 3))
    return draw(st.lists(st.integers(0, 12), max_size=10)), eos, draw(st.integers(1, 4))


@settings(max_examples=30)
@given(generations())
def test_generations(learner, run, tokenizer, gen):
    _masked(run)
    eos = sft.eos_id(tokenizer)
    rows = truth.judge(tokenizer, sft.HELD_OUT_PAIRS, run["generated"], eos)
    answered, stopped = sum(r["answered"] for r in rows), sum(r["stopped"] for r in rows)
    shown = "; ".join(f"{r['expected']}: {r['text']!r}" for r in rows)
    if answered < MIN_ANSWERED or stopped > MAX_STOPPED:
        fail(
            _("held-out answers with EOS masked: answered / stopped"),
            _(">= {answered} / <= {stopped} of 6", answered=MIN_ANSWERED, stopped=MAX_STOPPED),
            f"{answered} / {stopped}: {shown}",
        )
    for (_q, a), new, r in zip(sft.HELD_OUT_PAIRS, run["generated"], rows, strict=True):
        n = len(tokenizer(f" {a}", add_special_tokens=False)["input_ids"])
        expect_equal(
            learner.stops(new, eos, n),
            r["stopped"],
            _("stops() on the generation {text} for {a}", text=repr(r["text"]), a=a),
        )
    window = 2 + truth.STOP_WITHIN + 1  # new tokens allowed for a 2-token answer
    late = ([4] * window + [1], 1, 2)  # rambles past the window, then stops: not stopped
    edge = ([4] * (window - 1) + [1], 1, 2)  # EOS the last token the window allows: stopped
    for tokens, e, n in (late, edge, gen):
        expect_equal(
            learner.stops(tokens, e, n),
            e in tokens[: n + truth.STOP_WITHIN + 1],
            f"stops({tokens}, eos_id={e}, answer_len={n})",
            hint=_("EOS must come within the first answer_len + 3 new tokens"),
        )
