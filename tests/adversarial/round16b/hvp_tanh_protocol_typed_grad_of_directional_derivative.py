"""hvp_tanh: honest code with a ``typing.Protocol`` for scalar functions and the HVP as the
gradient of the directional derivative, ``grad(x -> jvp(f, x, v))``, reverse over forward.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
from typing import Callable, Protocol

import jax
import jax.numpy as jnp


class ScalarFn(Protocol):
    def __call__(self, x: jax.Array) -> jax.Array: ...


def hessian_vector_product(f: ScalarFn, x, v):
    directional: Callable = lambda u: jax.jvp(f, (u,), (v,))[1]
    return jax.grad(directional)(x)


def hvp(W, x, v):
    return hessian_vector_product(lambda u: jnp.sum(jnp.tanh(W @ u)), x, v)
