"""hvp_tanh: tanh written as ``2 * jax.nn.sigmoid(2 z) - 1``, the product by ``jax.jvp`` of
``jax.grad`` with ``functools.partial`` binding W.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def f(W, x):
    return jnp.sum(2.0 * jax.nn.sigmoid(2.0 * (W @ x)) - 1.0)


def hvp(W, x, v):
    return jax.jvp(jax.grad(partial(f, W)), (x,), (v,))[1]
