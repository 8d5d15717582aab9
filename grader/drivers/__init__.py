"""LEARNER-VISIBLE drivers: trusted grader code that runs *inside* the learner's process, one
module per exercise that needs one, named after the exercise's module. Never any part of an
answer: what a driver needs to know (settings, batches) the check sends as arguments.

Some checks need live objects (a model, an optimizer, a DataLoader) around the learner's
function. A driver builds them there, calls the learner's module, and returns plain data:
``learner.drive("grader.drivers.a4_grad_accum:run", seed=3)`` calls
``run(learner_module, seed=3)``. Its result is validated by the check like any other answer;
the expected values are still computed in the check's own process.

The learner's module runs in the same process and may replace a driver (or grader.given, or
torch) at import, so a driver's result is the learner's to forge: a driver returns artefacts the
check can verify on its own (weights, gradients, batches, a configuration it rebuilds), never a
conclusion (answers a model gave, a metric, a count); what it observes and the check cannot
re-derive only ever adds a reason to fail.
"""
