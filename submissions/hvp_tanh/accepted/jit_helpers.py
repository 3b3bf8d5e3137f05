"""Module-level jitted helpers: a jitted gradient and a jitted forward-over-reverse product.

Expected verdict: accepted.
"""
import functools

import jax
import jax.numpy as jnp


def _f(W, z):
    return jnp.sum(jnp.tanh(jnp.matmul(W, z)))


_grad_f = jax.jit(jax.grad(_f, argnums=1))


@jax.jit
def _hvp(W, x, v):
    return jax.jvp(functools.partial(_grad_f, W), (x,), (v,))[1]


def hvp(W, x, v):
    return _hvp(W, x, v)
