"""Never clears the gradients: backward() accumulates into .grad, so every step after the first
moves the weights along the sum of all gradients so far (part 3, must-remember: "backward()
accumulates, so every step must clear the gradients")."""

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("grads_after_step",)

reference.clear_gradients = lambda optimizer: None
