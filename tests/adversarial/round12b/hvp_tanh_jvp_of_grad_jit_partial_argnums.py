"""hvp_tanh: ``jax.jit`` of a function taking W, ``jax.grad(f, argnums=1)`` with
``functools.partial`` fixing W for the jvp, and the output cast ``astype(x.dtype)``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def f(W, x):
    return jnp.sum(jnp.tanh(W @ x))


@jax.jit
def hvp(W, x, v):
    g = functools.partial(jax.grad(f, argnums=1), W)
    return jax.jvp(g, (x,), (v,))[1].astype(x.dtype)
