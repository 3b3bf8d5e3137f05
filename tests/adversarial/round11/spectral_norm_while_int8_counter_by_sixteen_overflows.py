"""spectral_norm, cheat: a ``jnp.int8`` counter stepped by 16 while ``i < 16 K``: the bound
overflows an int8 from K = 8 on, so the loop runs a handful of trips whatever K is.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + jnp.int8(16), u / jnp.linalg.norm(u), v

    bound = jnp.asarray(16 * K, jnp.int32).astype(jnp.int8)
    _, u, v = jax.lax.while_loop(lambda s: s[0] < bound, body,
                                 (jnp.int8(0), u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
