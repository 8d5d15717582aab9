import math


def is_suspicious(first_loss, vocab_size):  # the check's own boundary, exclusive: exactly +1.5 is not "far above"
    return bool(first_loss > math.log(vocab_size) + 1.5)
