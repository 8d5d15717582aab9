"""Fork-server preload for a quick re-grade: the light imports only (see grader.engine.preload)."""

from grader.engine.preload import LIGHT, guard_fork_server, load

guard_fork_server()
load(LIGHT)
