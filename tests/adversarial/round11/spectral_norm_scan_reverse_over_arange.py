"""spectral_norm: ``lax.scan`` with ``reverse=True`` over ``jnp.arange(K)`` (the student counts
steps left), stacking each step's sigma and returning the last one computed (the first row).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(u, _):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        u = u / jnp.linalg.norm(u)
        return u, v

    u, vs = jax.lax.scan(step, u0, jnp.arange(K), reverse=True)
    v = vs[0]
    return jax.lax.stop_gradient(u) @ W @ jax.lax.stop_gradient(v)
