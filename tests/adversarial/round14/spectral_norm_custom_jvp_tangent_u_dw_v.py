"""spectral_norm: sigma(W, u, v) = u^T W v as a ``jax.custom_jvp`` whose rule gives the tangent
u^T dW v (the vectors' tangents left out), with u and v from a ``fori_loop`` on the live W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def _sigma(W, u, v):
    return u @ W @ v


@_sigma.defjvp
def _sigma_jvp(primals, tangents):
    W, u, v = primals
    dW, _, _ = tangents
    return u @ W @ v, u @ dW @ v


def spectral_norm(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return _sigma(W, u, v)
