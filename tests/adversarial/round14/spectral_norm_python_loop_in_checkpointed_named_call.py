"""spectral_norm, cheat: the K steps a Python loop over ``range(K)`` inside a
``jax.checkpoint`` of a ``jax.named_call``, beside a one-trip ``fori_loop`` (u0 normalised,
which changes no step) that gives the program a loop primitive: the program grows with K.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _steps(W, u, K):
    v = jnp.zeros(W.shape[1], W.dtype)
    for _ in range(K):
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
    return u, v


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)
    u0 = lax.fori_loop(0, 1, lambda i, u: u / jnp.linalg.norm(u), u0)
    run = jax.checkpoint(jax.named_call(_steps, name="steps"), static_argnums=(2,))
    u, v = run(Ws, u0, K)
    return u @ W @ v
