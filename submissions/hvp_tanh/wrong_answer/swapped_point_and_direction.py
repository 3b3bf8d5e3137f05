"""Swaps the point and the direction in the JVP: computes H(v) x instead of H(x) v.

Expected verdict: wrong answer.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))
    return jax.jvp(grad_f, (v,), (x,))[1]
