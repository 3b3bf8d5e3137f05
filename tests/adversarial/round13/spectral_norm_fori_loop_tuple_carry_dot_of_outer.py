"""spectral_norm: a ``fori_loop`` on the stopped W with the step split into two helpers (one for
v from u, one for u from v), sigma as ``jnp.sum(W * jnp.outer(u, v))`` (the same u^T W v).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _normalize(a):
    return a / jnp.sqrt(jnp.sum(a * a))


def _right(W, u):
    return _normalize(W.T @ u)


def _left(W, v):
    return _normalize(W @ v)


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def body(_, uv):
        v = _right(Ws, uv[0])
        return _left(Ws, v), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros((W.shape[1],), jnp.float32)))
    return jnp.sum(W * jnp.outer(u, v))
