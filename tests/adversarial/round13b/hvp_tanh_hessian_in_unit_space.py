"""hvp_tanh: the chain rule by hand at the level of the units: the Hessian of
``u -> sum(tanh(u))`` taken with ``jax.hessian`` at ``u = W x`` is only m x m (diagonal), and
H v = W^T (H_u (W v)). No value grows as d^2.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    u = W @ x
    H_u = jax.hessian(lambda u: jnp.sum(jnp.tanh(u)))(u)
    return W.T @ (H_u @ (W @ v))
