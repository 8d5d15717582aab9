"""The character Transformer given to P2 (grader/given/char_model.py) is the course's model."""

import math

import torch

from grader.given.char_model import GPT, N_PARAMS, GPTConfig, build_model, decode, encode, make_corpus


def test_parameter_count_is_the_courses():
    model = GPT(GPTConfig())
    assert sum(p.numel() for p in model.parameters()) == N_PARAMS == 840_448
    assert model.lm_head.weight.data_ptr() != model.wte.weight.data_ptr()  # untied
    assert model.h[0].attn.c_attn.bias is None and model.h[0].mlp.c_fc.bias is not None


def test_first_loss_is_ln_vocab():
    model = build_model(0)
    x = encode(make_corpus(4 * 65, seed=3))[: 4 * 64].view(4, 64)
    y = torch.roll(x, -1, dims=1)
    with torch.no_grad():
        loss = torch.nn.functional.cross_entropy(model(x).reshape(-1, 128), y.reshape(-1))
    assert abs(float(loss) - math.log(128)) < 0.2


def test_corpus_is_deterministic_ascii():
    a, b = make_corpus(5000, seed=1), make_corpus(5000, seed=1)
    assert a == b and len(a) == 5000 and a != make_corpus(5000, seed=2)
    assert decode(encode(a)) == a
