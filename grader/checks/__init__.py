"""HIDDEN: the checks, one test_<module>.py per exercise and one test function per key point.
A check file never imports another: shared ground truth lives in truth/, shared helpers and
hypothesis strategies in support/. No learner process can see this folder."""
