"""spectral_norm, cheat: a ``fori_loop`` of K trips that only rescales u by one, beside a
``lax.while_loop`` of a fixed 64 trips counted by a float, each step masked past K: the
steps run in a loop whose trips do not grow with K, and the loop that does grow carries none.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    u0 = jax.lax.fori_loop(0, K, lambda _, u: u * 1.0, u0)

    def body(s):
        t, u, v = s
        v2 = Wc.T @ u
        v2 = v2 / jnp.linalg.norm(v2)
        u2 = Wc @ v2
        u2 = u2 / jnp.linalg.norm(u2)
        live = t < K
        return t + 1.0, jnp.where(live, u2, u), jnp.where(live, v2, v)

    _, u, v = jax.lax.while_loop(lambda s: s[0] < 64.0, body,
                                 (jnp.float32(0.0), u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
