import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: s[0] < K, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
