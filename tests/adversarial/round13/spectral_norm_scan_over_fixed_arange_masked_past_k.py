"""spectral_norm, cheat: a ``lax.scan`` over ``jnp.arange(64)`` (a fixed count: K's top), each
step kept by ``jnp.where(i < K, ...)``: the program is the same at every K and its loop runs 64
trips at K = 1. The statement lets masked steps pad one trip at most.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(carry, i):
        u, v = carry
        nv = Wc.T @ u
        nv = nv / jnp.linalg.norm(nv)
        nu = Wc @ nv
        nu = nu / jnp.linalg.norm(nu)
        keep = i < K
        return (jnp.where(keep, nu, u), jnp.where(keep, nv, v)), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros_like(W[0])), jnp.arange(64))
    return u @ W @ v
