"""LEARNER-VISIBLE: the grader code that runs inside the learner's process, mounted whole into its
sandbox. The worker loop (worker.py), the watch on forbidden calls (watch.py) and the wire format
(codec.py, which the check side imports too). Nothing here imports check-side code
(grader/isolation, engine, checks, course, quiz): tests/test_check_imports.py scans for it. Never any part
of an answer."""

# The grader packages the learner's process may import, each mounted whole into its view
# (grader.isolation.sandbox); the worker forgets every other grader module a zygote's child inherits.
VISIBLE = ("grader.inside", "grader.given", "grader.drivers")
