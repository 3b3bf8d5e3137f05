"""spectral_norm, honest: the products by ``lax.dot_general`` with explicit contracting
dimensions, the vectors normalised by ``jnp.linalg.vector_norm``, a ``fori_loop`` over a dict
carry, sigma by ``lax.dot`` with u and v stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _wt_u(W, u):
    return lax.dot_general(W, u, (((0,), (0,)), ((), ())))


def _w_v(W, v):
    return lax.dot_general(W, v, (((1,), (0,)), ((), ())))


def spectral_norm(W, u0, K):
    def body(_, c):
        v = _wt_u(W, c["u"])
        v = v / jnp.linalg.vector_norm(v)
        u = _w_v(W, v)
        return {"u": u / jnp.linalg.vector_norm(u), "v": v}

    c = lax.fori_loop(0, K, body, {"u": u0, "v": jnp.zeros(W.shape[1], W.dtype)})
    u, v = lax.stop_gradient(c["u"]), lax.stop_gradient(c["v"])
    return lax.dot(u, lax.dot(W, v))
