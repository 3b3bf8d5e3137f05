import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def cond(state):
        return state[0] < K

    def body(state):
        i, u, _ = state
        v = Wc.T @ u
        v = v * jax.lax.rsqrt(jnp.dot(v, v))
        u = Wc @ v
        u = u * jax.lax.rsqrt(jnp.dot(u, u))
        return i + 1, u, v

    _, u, v = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return jnp.sum(u[:, None] * W * v[None, :])
