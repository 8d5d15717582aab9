"""The learner's process and its walls: the check's handle on it (learner.py), the process itself
(worker.py, forked from zygote.py), its sandbox and the wire format between them (codec.py).
Only worker.py and codec.py run inside the learner's process."""
