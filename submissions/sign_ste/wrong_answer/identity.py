"""Returns x itself: the derivatives are the identity, but the values are not quantized.

Expected: wrong answer (wrong_value).
"""


def ste_quantize(x):
    return x
