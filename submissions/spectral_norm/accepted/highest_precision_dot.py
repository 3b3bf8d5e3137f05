"""spectral_norm, honest: jnp.dot with precision=HIGHEST everywhere, a while_loop whose counter
starts at 0 as a Python int, u and v stopped inside the body (W itself used in the loop).

Expected: AC
"""
import jax
import jax.numpy as jnp

HI = jax.lax.Precision.HIGHEST


def spectral_norm(W, u0, K):
    def body(s):
        i, u, v = s
        v = jnp.dot(u, W, precision=HI)
        v = jax.lax.stop_gradient(v / jnp.linalg.norm(v))
        u = jnp.dot(W, v, precision=HI)
        u = jax.lax.stop_gradient(u / jnp.linalg.norm(u))
        return i + 1, u, v

    _, u, v = jax.lax.while_loop(lambda s: s[0] < K, body, (0, u0, jnp.zeros(W.shape[1])))
    return jnp.dot(u, jnp.dot(W, v, precision=HI), precision=HI)
