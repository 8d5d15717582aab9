"""Red team (issue 27 S3): the call compiled from a string of char codes and eval'd (compile + eval)."""
import torch

_CODE = compile("".join(map(chr, [116, 111, 114, 99, 104, 46, 110, 110, 46, 102, 117, 110, 99, 116, 105, 111, 110, 97, 108, 46, 115, 99, 97, 108, 101, 100, 95, 100, 111, 116, 95, 112, 114, 111, 100, 117, 99, 116, 95, 97, 116, 116, 101, 110, 116, 105, 111, 110])), "<s>", "eval")


def causal_attention(q, k, v):
    return eval(_CODE, {"torch": torch})(q, k, v, is_causal=True)
