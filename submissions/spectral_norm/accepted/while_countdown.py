"""spectral_norm, honest: a while_loop that counts K down to zero, the counter an int32 array in
the carry, the matrix stopped before the loop and the vectors normalised with lax.rsqrt.

Expected: AC
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def cond(state):
        return state[0] > 0

    def body(state):
        k, u, v = state
        v = Ws.T @ u
        v = v * lax.rsqrt(jnp.dot(v, v))
        u = Ws @ v
        u = u * lax.rsqrt(jnp.dot(u, u))
        return k - 1, u, v

    init = (jnp.asarray(K, jnp.int32), u0, jnp.zeros_like(W[0]))
    _, u, v = lax.while_loop(cond, body, init)
    return jnp.dot(u, jnp.dot(W, v))
