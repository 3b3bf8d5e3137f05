"""sign_ste: honest code with a ``typing.Protocol`` for activations, a class with ``__call__``,
``jax.numpy`` imported as ``np``, and the straight-through sign written with
``lax.stop_gradient`` as ``(v - sg(v)) + sg(sign(v))``.

Problem: sign_ste
Expected: AC
Cases: all
"""
from typing import Protocol

import jax
import jax.numpy as np


class Activation(Protocol):
    def __call__(self, v: jax.Array) -> jax.Array: ...


class StraightThroughSign:
    def __call__(self, v):
        sg = jax.lax.stop_gradient
        return (v - sg(v)) + sg(np.sign(v))


ACT: Activation = StraightThroughSign()


def ste_quantize(x):
    return ACT(x)
