"""spectral_norm, honest: four power steps to a trip of fori_loop(0, K // 4) and the K % 4 steps
left written out after it; only v is stopped, so u is differentiated through every step, in the
loop (a backward loop of as many trips beside it) and in the steps written out (each with its
backward equations). u is a unit vector along W v: its change is orthogonal to W v and adds
nothing to the gradient.

Expected: AC
"""
import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        for _ in range(4):
            u, v = _step(W, u)
        return u, v

    u, v = jax.lax.fori_loop(0, K // 4, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    for _ in range(K % 4):
        u, v = _step(W, u)
    return u @ W @ jax.lax.stop_gradient(v)
