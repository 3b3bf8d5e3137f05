"""spectral_norm: sigma a ``jax.custom_vjp`` of ``(W, u, v)`` whose backward rule returns
``g * jnp.outer(u, v)`` for ``W`` and zeros for the vectors; the iteration in a ``fori_loop``
on ``W`` with the vectors stopped before the call.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def sigma(W, u, v):
    return u @ W @ v


def _sigma_fwd(W, u, v):
    return sigma(W, u, v), (u, v)


def _sigma_bwd(res, g):
    u, v = res
    return g * jnp.outer(u, v), jnp.zeros_like(u), jnp.zeros_like(v)


sigma.defvjp(_sigma_fwd, _sigma_bwd)


def spectral_norm(W, u0, K):
    def body(_, state):
        u, _ = state
        v = W.T @ u
        v = v / jnp.sqrt(jnp.sum(v ** 2))
        u = W @ v
        return u / jnp.sqrt(jnp.sum(u ** 2)), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros_like(W[0])))
    return sigma(W, jax.lax.stop_gradient(u), jax.lax.stop_gradient(v))
