"""spectral_norm: the loop inside ``with jax.named_scope("power_iteration")``, ``jnp.inner`` for
sigma = u . (W v), the vectors stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    with jax.named_scope("power_iteration"):
        def step(i, carry):
            u, v = carry
            v = W.T @ u
            v = v / jnp.linalg.norm(v)
            u = W @ v
            return u / jnp.linalg.norm(u), v

        u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1])))
    with jax.named_scope("sigma"):
        u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
        return jnp.inner(u, W @ v)
