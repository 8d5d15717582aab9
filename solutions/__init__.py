"""Reference answers, graded by `make grade TARGET=solutions`; mutants/ holds wrong variants."""
