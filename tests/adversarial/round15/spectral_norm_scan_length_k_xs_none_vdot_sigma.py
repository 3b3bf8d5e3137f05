"""spectral_norm, honest: ``lax.scan(step, u0, xs=None, length=K)`` carrying u alone and giving
each step's v as the scan's output (the last one read with ``vs[-1]``), sigma as
``jnp.vdot(u, W @ v)`` with both vectors stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def step(u, _):
        v = Ws.T @ u
        v = v / jnp.sqrt(jnp.vdot(v, v))
        u = Ws @ v
        u = u / jnp.sqrt(jnp.vdot(u, u))
        return u, v

    u, vs = lax.scan(step, u0, xs=None, length=K)
    v = vs[-1]
    return jnp.vdot(u, W @ v)
