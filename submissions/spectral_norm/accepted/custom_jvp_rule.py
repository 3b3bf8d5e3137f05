import jax
import jax.numpy as jnp

from functools import partial


def _power(W, u0, K):
    def body(_, carry):
        u, _v = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))


@partial(jax.custom_jvp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = _power(W, u0, K)
    return u @ W @ v


@_sigma.defjvp
def _sigma_jvp(K, primals, tangents):
    W, u0 = primals
    dW, _ = tangents
    u, v = _power(W, u0, K)
    return u @ W @ v, u @ dW @ v


def spectral_norm(W, u0, K):
    return _sigma(W, jax.lax.stop_gradient(u0), K)
