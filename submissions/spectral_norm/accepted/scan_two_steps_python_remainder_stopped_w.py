import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Wc = lax.stop_gradient(W)

    def one(u):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    def two(carry, _):
        u, v = carry
        u, v = one(u)
        u, v = one(u)
        return (u, v), None

    v0 = jnp.zeros(W.shape[1], jnp.float32)
    (u, v), _ = lax.scan(two, (u0, v0), None, length=K // 2)
    if K % 2:
        u, v = one(u)
    return jnp.vdot(u, W @ v)
