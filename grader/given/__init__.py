"""LEARNER-VISIBLE: the only grader code a learner's process may import (models, data and loops
the exercises build on). It must never hold any part of an answer: reference data paths,
recipes, thresholds and judges belong in grader/checks/truth/."""
