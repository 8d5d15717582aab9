"""Fork-server preload for a full grade or the test suite: torch, transformers, peft too."""

from grader.preload import HEAVY, load

load(HEAVY)
