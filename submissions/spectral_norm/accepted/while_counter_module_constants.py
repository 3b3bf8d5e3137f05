"""spectral_norm, honest: a while_loop whose counter starts at a module-level jnp.int32(0) and
steps by a module-level jnp.int32(1): both are constants the traced program holds, not values
computed from W or u0. The test is i < K.

Expected: AC
"""
import jax
import jax.numpy as jnp

ZERO = jnp.int32(0)
ONE = jnp.int32(1)


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + ONE, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: s[0] < K, body, (ZERO, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
