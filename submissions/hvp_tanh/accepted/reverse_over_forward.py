"""Reverse-over-forward: the gradient of the directional derivative z -> f'(z; v).

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(z):
        return jnp.tanh(W @ z).sum()

    def directional(z):
        return jax.jvp(f, (z,), (v,))[1]

    return jax.grad(directional)(x)
