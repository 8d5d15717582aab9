"""Fork-server preload for a full grade or the test suite: torch, transformers, peft too."""

from grader.engine.preload import HEAVY, guard_fork_server, load

guard_fork_server()
load(HEAVY)
