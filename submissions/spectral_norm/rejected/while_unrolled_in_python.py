"""spectral_norm, unrolled: a while_loop whose body does all K steps in Python and runs once.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(s):
        i, u, v = s
        for _ in range(K):
            v = Wc.T @ u
            v = v / jnp.linalg.norm(v)
            u = Wc @ v
            u = u / jnp.linalg.norm(u)
        return i + 1, u, v

    _, u, v = jax.lax.while_loop(lambda s: s[0] < 1, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
