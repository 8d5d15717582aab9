"""P2's mutant `scheduler_before_optimizer` as the C5 answer: ``scheduler.step()`` before
``optimizer.step()`` ("Detected call of lr_scheduler.step() before optimizer.step() ... skipping the
first value of the learning rate schedule", asked about in zju3dv/NeuralRecon issue #51)."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.scheduler_before_optimizer import *  # noqa: F403

KILLED_BY = ("learning_rates",)
MISCONCEPTION = "call scheduler.step() before optimizer.step(): each step runs with the next step's learning rate"
