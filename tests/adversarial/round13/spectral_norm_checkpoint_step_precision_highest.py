"""spectral_norm: the step under ``jax.checkpoint`` in a ``fori_loop``, its products by
``jnp.matmul(..., precision="highest")``, norms by ``jnp.linalg.vector_norm``, u and v stopped
after the loop.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def _step(W, u):
    v = jnp.matmul(W.T, u, precision="highest")
    v = v / jnp.linalg.vector_norm(v)
    u = jnp.matmul(W, v, precision="highest")
    return u / jnp.linalg.vector_norm(u), v


def spectral_norm(W, u0, K):
    u, v = jax.lax.fori_loop(0, K, lambda _, c: _step(W, c[0]), (u0, jnp.zeros_like(W[0])))
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return jnp.matmul(u, jnp.matmul(W, v, precision="highest"), precision="highest")
