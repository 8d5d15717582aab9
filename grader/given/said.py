"""What the given modules say to a learner when their code misuses them (an exception's message).

The learner's process holds no message catalog, so a given module raises with one of these English
templates, filled; the check side reads a raised message that fills one of them in the reader's
language through the catalog (grader.isolation.learner.GIVEN_SAYS lists the same templates)."""

TOO_LONG = "sequence of {n} tokens is longer than block_size {block_size}"

TEMPLATES = (TOO_LONG,)
