"""hvp_tanh: forward over reverse, ``jax.jvp`` of ``jax.grad(f, argnums=1)`` with W bound by
``functools.partial``, f written with ``jnp.sum(jnp.tanh(W @ x))``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _f(W, x):
    return jnp.sum(jnp.tanh(W @ x))


def hvp(W, x, v):
    grad_x = functools.partial(jax.grad(_f, argnums=1), W)
    return jax.jvp(grad_x, (x,), (v,))[1]
