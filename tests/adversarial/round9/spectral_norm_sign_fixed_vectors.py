"""spectral_norm: after the loop the student fixes the sign of the singular pair (the largest
entry of u made positive, v flipped with it: u v^T and u^T W v are unchanged), a habit from SVD
code; the loop is a ``lax.scan`` over ``jnp.arange(K)``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _unit(a):
    return a / jnp.linalg.norm(a)


def spectral_norm(W, u0, K):
    def step(carry, _):
        u, _ = carry
        v = _unit(W.T @ u)
        return (_unit(W @ v), v), None

    (u, v), _ = lax.scan(step, (u0, jnp.zeros(W.shape[1])), jnp.arange(K))
    s = jnp.sign(u[jnp.argmax(jnp.abs(u))])
    s = jnp.where(s == 0, 1.0, s)
    u, v = lax.stop_gradient(s * u), lax.stop_gradient(s * v)
    return jnp.einsum("i,ij,j", u, W, v)
