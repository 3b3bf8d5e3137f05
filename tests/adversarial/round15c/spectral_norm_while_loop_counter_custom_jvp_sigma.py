"""spectral_norm: a ``jax.lax.while_loop`` with a counter to ``K`` on a stopped ``W``, the
normalisation by ``x * lax.rsqrt(jnp.sum(x * x))``, sigma a ``custom_jvp`` bilinear form whose
tangent is ``u @ dW @ v`` with the vectors' tangents left out.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _unit(x):
    return x * lax.rsqrt(jnp.sum(x * x))


@jax.custom_jvp
def bilinear(u, W, v):
    return u @ W @ v


@bilinear.defjvp
def _bilinear_jvp(primals, tangents):
    u, W, v = primals
    _, dW, _ = tangents
    return bilinear(u, W, v), u @ dW @ v


def spectral_norm(W, u0, K):
    Wc = lax.stop_gradient(W)

    def cond(state):
        return state[0] < K

    def body(state):
        i, u, _ = state
        v = _unit(Wc.T @ u)
        return i + 1, _unit(Wc @ v), v

    _, u, v = lax.while_loop(cond, body, (0, u0, jnp.zeros_like(W[0])))
    return bilinear(u, W, v)
