"""spectral_norm, honest: a while_loop whose counter starts as the Python int 0 and steps by
jnp.int32(1) (JAX converts the weakly typed counter before the sum), the test i < K.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(s):
        i, u, _ = s
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + jnp.int32(1), u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: s[0] < K, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
