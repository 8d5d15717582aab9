"""Fork-server preload for a quick re-grade: the light imports only (see grader.preload)."""

from grader.preload import LIGHT, load

load(LIGHT)
