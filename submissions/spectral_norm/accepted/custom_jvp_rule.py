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
    @jax.custom_jvp
    def sigma(W):
        u, v = _power(W, u0, K)
        return u @ W @ v

    @sigma.defjvp
    def sigma_jvp(primals, tangents):
        (W,), (dW,) = primals, tangents
        u, v = _power(W, u0, K)
        return u @ W @ v, u @ dW @ v

    return sigma(W)
