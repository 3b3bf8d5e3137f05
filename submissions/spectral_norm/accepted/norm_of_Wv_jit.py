import jax
import jax.numpy as jnp

from functools import partial


@partial(jax.jit, static_argnums=2)
def spectral_norm(W, u0, K):
    # u^T W v = ||W v|| when u = W v / ||W v||: the last normalization is not needed
    Wc = jax.lax.stop_gradient(W)

    def body(_, u):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u)

    u = jax.lax.fori_loop(0, K - 1, body, u0)
    v = Wc.T @ u
    v = v / jnp.linalg.norm(v)
    return jnp.linalg.norm(W @ v)
