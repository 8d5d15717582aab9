"""The environment as the interpreter's and torch's versions only: not what pip freeze lists, so the
other packages that shaped the number (numpy, transformers) are unknown three months later."""

import platform

import torch

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import run_record as _run_record

KILLED_BY = ("run_record",)


def run_record(run):
    rec = _run_record(run)
    rec["environment"] = {"python": platform.python_version(), "torch": torch.__version__}
    return rec
