"""sign_ste: ``jax.custom_jvp`` with typing habits: ``typing.overload`` for a ``jax.Array`` and a
NumPy input, ``jax.typing.ArrayLike`` in the implementation, the sign cast back with
``.astype(x.dtype)`` and the tangent passed through.

Problem: sign_ste
Expected: AC
Cases: all
"""
from typing import overload

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike


@jax.custom_jvp
def _sign(x):
    return jnp.sign(x).astype(x.dtype)


@_sign.defjvp
def _sign_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _sign(x), dx


@overload
def ste_quantize(x: jax.Array) -> jax.Array: ...


@overload
def ste_quantize(x: np.ndarray) -> jax.Array: ...


def ste_quantize(x: ArrayLike) -> jax.Array:
    return _sign(jnp.asarray(x))
