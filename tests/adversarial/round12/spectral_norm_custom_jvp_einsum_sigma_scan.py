"""spectral_norm: ``jax.custom_jvp`` over (W, u0) with K closed over, its rule giving
u^T dW v (``jnp.einsum('i,ij,j->', u, dW, v)``); the K steps a ``lax.scan`` over
``jnp.arange(K)``, sigma by the same three-operand einsum.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _power(W, u0, K):
    def step(carry, _):
        u, _v = carry
        v = W.T @ u
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = W @ v
        u = u / jnp.sqrt(jnp.sum(u * u))
        return (u, v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), jnp.arange(K))
    return u, v


def spectral_norm(W, u0, K):
    @jax.custom_jvp
    def sigma(W, u0):
        u, v = _power(W, u0, K)
        return jnp.einsum("i,ij,j->", u, W, v)

    @sigma.defjvp
    def sigma_jvp(primals, tangents):
        W, u0 = primals
        dW, _ = tangents
        u, v = _power(W, u0, K)
        return jnp.einsum("i,ij,j->", u, W, v), jnp.einsum("i,ij,j->", u, dW, v)

    return sigma(W, u0)
