"""hvp_tanh: honest code: reverse over reverse, the gradient of ``vdot(grad f(x), v)``, under a
``functools.partial(jax.jit, static_argnames=...)`` decorator with a static flag for the mode.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def f(W, x):
    return jnp.sum(jnp.tanh(W @ x))


@functools.partial(jax.jit, static_argnames=("mode",))
def _hvp(W, x, v, mode="rev_rev"):
    g = jax.grad(f, argnums=1)
    if mode == "rev_rev":
        return jax.grad(lambda u: jnp.vdot(g(W, u), v))(x)
    return jax.jvp(lambda u: g(W, u), (x,), (v,))[1]


def hvp(W, x, v):
    return _hvp(W, x, v, mode="rev_rev")
