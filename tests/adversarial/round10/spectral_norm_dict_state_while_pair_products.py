"""spectral_norm: a dict state in a ``lax.while_loop`` (counter, u, v), the matrix-vector products
written as broadcast products and sums (``(W * u[:, None]).sum(0)``), sigma as
``jnp.sum(jnp.outer(u, v) * W)`` with the outer product stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(s):
        v = (W * s["u"][:, None]).sum(axis=0)
        v = v / jnp.linalg.norm(v)
        u = (W * v[None, :]).sum(axis=1)
        u = u / jnp.linalg.norm(u)
        return {"i": s["i"] + 1, "u": u, "v": v}

    s = jax.lax.while_loop(lambda s: s["i"] < K, body,
                           {"i": jnp.int32(0), "u": u0, "v": jnp.zeros(W.shape[1], W.dtype)})
    P = jax.lax.stop_gradient(jnp.outer(s["u"], s["v"]))
    return jnp.sum(P * W)
