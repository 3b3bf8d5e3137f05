"""spectral_norm: a ``lax.scan`` over ``jnp.arange(K)`` (the step's index unused) that also stacks
each step's u and v, the last rows taken as the final vectors; stopped, sigma by ``jnp.vdot``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(u, _):
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
        return u, (u, v)

    _, (us, vs) = jax.lax.scan(step, u0, jnp.arange(K))
    u, v = jax.lax.stop_gradient(us[-1]), jax.lax.stop_gradient(vs[-1])
    return jnp.vdot(u, W @ v)
