"""spectral_norm, honest: a loop of 2K half steps, the even trips updating v from u and the odd
ones u from v, chosen by ``lax.cond(i % 2 == 0, ...)`` on the loop's counter.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def half(i, uv):
        u, v = uv

        def left(uv):
            w = Ws.T @ uv[0]
            return uv[0], w / jnp.linalg.norm(w)

        def right(uv):
            w = Ws @ uv[1]
            return w / jnp.linalg.norm(w), uv[1]

        return lax.cond(i % 2 == 0, left, right, (u, v))

    u, v = lax.fori_loop(0, 2 * K, half, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
