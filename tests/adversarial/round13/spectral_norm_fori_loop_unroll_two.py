"""spectral_norm: ``lax.fori_loop(..., unroll=2)``, u and v normalised by ``lax.rsqrt`` of their
squared norms, sigma by ``jnp.vdot(u, W @ v)`` with u and v stopped after the loop.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _unit(a):
    return a * lax.rsqrt(jnp.vdot(a, a))


def spectral_norm(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = _unit(W.T @ u)
        return _unit(W @ v), v

    u, v = lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], jnp.float32)), unroll=2)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return jnp.vdot(u, W @ v)
