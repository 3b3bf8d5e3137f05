"""spectral_norm: the step is a module-level ``jax.jit`` function called from the body of a
``lax.fori_loop`` (a nested jit, a ``pjit`` equation inside the loop).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def power_step(Wc, u):
    v = Wc.T @ u
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    u, v = jax.lax.fori_loop(0, K, lambda _, c: power_step(Wc, c[0]),
                             (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
