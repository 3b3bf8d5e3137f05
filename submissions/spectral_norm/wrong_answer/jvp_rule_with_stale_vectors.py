"""spectral_norm, wrong: a custom_jvp whose primal runs K steps but whose rule recomputes u and v
with K - 1 steps (at least one): the derivative of an earlier estimate.

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
    @jax.custom_jvp
    def sigma(W):
        u, v = _uv(W, u0, K)
        return u @ W @ v

    @sigma.defjvp
    def rule(primals, tangents):
        (W,), (dW,) = primals, tangents
        u, v = _uv(W, u0, max(K - 1, 1))
        return sigma(W), u @ dW @ v

    return sigma(W)
