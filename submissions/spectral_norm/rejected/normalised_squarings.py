"""spectral_norm, cheat: (W^T W)^(K-1) by repeated squaring of a normalised Gram matrix in a
while_loop over the bits of K - 1 (log2 K trips), applied to W^T u0: the same iterate as K power
steps, with a loop that does not run K times.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    G = Wc.T @ Wc
    G = G / jnp.linalg.norm(G)
    v = Wc.T @ u0
    v = v / jnp.linalg.norm(v)

    def body(s):
        e, A, v = s
        v = jnp.where(e % 2 == 1, A @ v, v)
        v = v / jnp.linalg.norm(v)
        A = A @ A
        return e // 2, A / jnp.linalg.norm(A), v

    _, _, v = jax.lax.while_loop(lambda s: s[0] > 0, body, (jnp.int32(K - 1), G, v))
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
