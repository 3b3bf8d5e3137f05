"""spectral_norm: a ``jax.custom_vjp`` made per call, closed over K (no ``nondiff_argnums``),
differentiable in W and u0, its forward rule keeping (u, v) only and its backward rule giving
``g * u[:, None] * v[None, :]`` and a zero cotangent for u0.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def iterate(W, u0):
        def step(_, c):
            u, v = c
            v = W.T @ u
            v = v / jnp.linalg.norm(v)
            u = W @ v
            return u / jnp.linalg.norm(u), v
        return jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))

    @jax.custom_vjp
    def sigma(W, u0):
        u, v = iterate(W, u0)
        return u @ W @ v

    def fwd(W, u0):
        u, v = iterate(W, u0)
        return u @ W @ v, (u, v)

    def bwd(res, g):
        u, v = res
        return g * u[:, None] * v[None, :], jnp.zeros_like(u)

    sigma.defvjp(fwd, bwd)
    return sigma(W, u0)
