import jax
import jax.numpy as jnp
from jax import lax


def _iterate(W, u0, K):
    def body(u, _):
        v = W.T @ u
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = W @ v
        u = u / jnp.sqrt(jnp.sum(u * u))
        return u, v
    u, vs = lax.scan(body, u0, xs=None, length=K)
    return u, vs[-1]


def spectral_norm(W, u0, K):
    @jax.custom_vjp
    def sigma(W):
        u, v = _iterate(W, u0, K)
        return jnp.dot(u, W @ v)

    def fwd(W):
        u, v = _iterate(W, u0, K)
        return jnp.dot(u, W @ v), (u, v)

    def bwd(res, c):
        u, v = res
        return (c * jnp.outer(u, v),)

    sigma.defvjp(fwd, bwd)
    return sigma(W)
