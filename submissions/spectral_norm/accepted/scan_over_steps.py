import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(carry, _):
        u, _v = carry
        v = Wc.T @ u
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = Wc @ v
        u = u / jnp.sqrt(jnp.sum(u * u))
        return (u, v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=K)
    return jnp.dot(u, jnp.dot(W, v))
