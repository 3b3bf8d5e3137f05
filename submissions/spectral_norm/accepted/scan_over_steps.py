import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(carry, _):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = Wc @ v
        u = u / jnp.sqrt(jnp.sum(u * u))
        return (u, v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros_like(W[0])), None, length=K)
    return jnp.vdot(u, W @ v)
