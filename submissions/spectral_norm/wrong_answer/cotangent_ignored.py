"""spectral_norm, wrong: a custom_vjp whose backward rule returns u v^T without the cotangent c
(right only where c is 1).

Expected: WA wrong_vjp
"""
import jax
import jax.numpy as jnp


def _uv(W, u0, K):
    def body(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))


def spectral_norm(W, u0, K):
    @jax.custom_vjp
    def sigma(W):
        u, v = _uv(W, u0, K)
        return u @ W @ v

    def fwd(W):
        u, v = _uv(W, u0, K)
        return u @ W @ v, (u, v)

    def bwd(res, c):
        u, v = res
        return (jnp.outer(u, v),)

    sigma.defvjp(fwd, bwd)
    return sigma(W)
