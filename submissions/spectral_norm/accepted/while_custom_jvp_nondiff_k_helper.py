import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    return _power(W, u0, K)[0]


def _power(W, u0, K):
    def cond(state):
        return state[0] < K

    def body(state):
        i, u, v = state
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
        return i + 1, u, v

    _, u, v = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros((W.shape[1],), jnp.float32)))
    return u @ (W @ v), u, v


@_sigma.defjvp
def _sigma_jvp(K, primals, tangents):
    W, u0 = primals
    dW, _ = tangents
    s, u, v = _power(W, u0, K)
    return s, u @ (dW @ v)


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
