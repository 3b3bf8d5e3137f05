"""spectral_norm: a ``jax.custom_jvp`` over (W, u0) with K closed over; the rule returns
u^T dW v and ignores u0's tangent.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def vectors(W, u0):
        def body(carry):
            i, u, _ = carry
            v = W.T @ u
            v = v / jnp.linalg.norm(v)
            u = W @ v
            return i + 1, u / jnp.linalg.norm(u), v

        _, u, v = jax.lax.while_loop(lambda c: c[0] < K, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
        return u, v

    @jax.custom_jvp
    def sigma(W, u0):
        u, v = vectors(W, u0)
        return u @ W @ v

    @sigma.defjvp
    def sigma_jvp(primals, tangents):
        W, u0 = primals
        dW, _ = tangents
        u, v = vectors(W, u0)
        return u @ W @ v, u @ dW @ v

    return sigma(W, u0)
