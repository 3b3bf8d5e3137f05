"""spectral_norm: a ``lax.while_loop`` whose counter is a ``jnp.int8`` started at K and
decremented while it is above zero (K is at most 64, which an int8 holds).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        k, u, v = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return k - jnp.int8(1), u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: s[0] > 0, body,
                                 (jnp.int8(K), u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
