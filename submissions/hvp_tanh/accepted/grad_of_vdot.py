"""Reverse-over-reverse: the gradient of z -> <grad f(z), v>, which is H(z) v.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(z):
        return jnp.sum(jnp.tanh(W @ z))

    return jax.grad(lambda z: jnp.vdot(jax.grad(f)(z), v))(x)
