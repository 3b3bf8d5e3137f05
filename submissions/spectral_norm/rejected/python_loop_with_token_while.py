"""spectral_norm, cheat: the K steps in a Python loop, a while_loop beside them that carries the
final u through one trip so that a loop primitive computes the output.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    u = u0
    for _ in range(K):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        u = u / jnp.linalg.norm(u)
    _, u = jax.lax.while_loop(lambda s: s[0] < 1, lambda s: (s[0] + 1, s[1] * 1.0), (0, u))
    return u @ W @ v
