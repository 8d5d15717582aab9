"""HIDDEN: what the checks share that is not ground truth: expected-vs-got helpers
(checking.py) and hypothesis strategies (strategies.py)."""
