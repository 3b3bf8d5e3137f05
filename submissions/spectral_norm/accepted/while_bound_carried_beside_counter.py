import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Wc = lax.stop_gradient(W)

    def body(state):
        i, n, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + 1, n, u / jnp.linalg.norm(u), v

    # the step count travels in the carry beside the counter
    _, _, u, v = lax.while_loop(lambda s: s[0] < s[1], body,
                                (jnp.int32(0), jnp.int32(K), u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
