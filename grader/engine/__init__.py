"""Grading, check side: one pytest process per exercise, its plugin, results and the cache of
verdicts. No learner process may import it."""
