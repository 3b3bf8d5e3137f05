import jax
import jax.numpy as jnp


def _power(W, u0, K):
    def step(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))


def spectral_norm(W, u0, K):
    @jax.custom_vjp
    def sigma(W):
        u, v = _power(W, u0, K)
        return u @ W @ v

    def fwd(W):
        u, v = _power(W, u0, K)
        return u @ W @ v, (u, v)

    def bwd(res, c):
        u, v = res
        return (c * jnp.outer(u, v),)

    sigma.defvjp(fwd, bwd)
    return sigma(W)
