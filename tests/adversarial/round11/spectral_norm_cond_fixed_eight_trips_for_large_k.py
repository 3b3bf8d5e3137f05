"""spectral_norm, cheat: ``lax.cond(K > 8, ...)`` outside the loop picks a ``fori_loop`` of a
fixed 8 trips for every K above 8 and one of K trips below: the trips stop growing with K.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    v0 = jnp.zeros(W.shape[1], W.dtype)

    def step(_, carry):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.cond(K > 8, lambda: jax.lax.fori_loop(0, 8, step, (u0, v0)),
                        lambda: jax.lax.fori_loop(0, K, step, (u0, v0)))
    return u @ W @ v
