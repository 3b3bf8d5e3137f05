"""spectral_norm: ``lax.fori_loop(-K, 0, ...)``, K trips counted from -K, the body ignoring the
index; u and v normalised with ``jnp.linalg.norm(..., keepdims=True)`` and sigma by
``jnp.einsum`` of the stopped vectors.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _v = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v, keepdims=True)
        u = W @ v
        return u / jnp.linalg.norm(u, keepdims=True), v

    u, v = jax.lax.fori_loop(-K, 0, body, (u0, jnp.zeros_like(W[0])))
    u = jax.lax.stop_gradient(u)
    v = jax.lax.stop_gradient(v)
    return jnp.einsum("i,ij,j", u, W, v)
