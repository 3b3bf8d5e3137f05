"""hvp_tanh: H v as a one-sided finite difference of the gradient, (g(x + eps v) - g(x)) / eps with
eps = 1e-3 in float32: no rule forbids it, but it is off by far more than the tolerance.

Problem: hvp_tanh
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    g = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))
    eps = 1e-3
    return (g(x + eps * v) - g(x)) / eps
