import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(i, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(jnp.int32(0), jnp.int32(K), body, (u0, jnp.zeros_like(W[0])))
    return jnp.vecdot(u, W @ v)
