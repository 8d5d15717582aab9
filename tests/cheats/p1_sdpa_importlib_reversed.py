"""Red team (issue 27 S3): the binding behind F's function (torch._C._nn), its module imported by importlib and its name reversed."""
import importlib
import operator


def causal_attention(q, k, v):
    nn = importlib.import_module("lanoitcnuf.nn.hcrot"[::-1].rsplit(".", 1)[0].replace("nn", "_C._nn"))
    return operator.attrgetter("noitnetta_tcudorp_tod_delacs"[::-1])(nn)(q, k, v, is_causal=True)
