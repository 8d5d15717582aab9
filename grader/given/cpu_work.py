"""X1's preprocessing step: CPU-bound pure-Python work whose result the grader knows in closed form.

Given, not asked: the exercise is how to run it fast, not what it computes."""


def busy(n: int) -> int:
    """``sum(i * i % 7 for i in range(n))``, one bytecode loop iteration per i."""
    s = 0
    for i in range(n):
        s += i * i % 7
    return s
