"""spectral_norm: ``lax.scan`` of length K with ``unroll=4`` (K need not be a multiple of 4:
XLA runs the remainder), the carry a dict {"u", "v"}, W^T computed once outside, u and v
stopped with ``jax.tree.map(lax.stop_gradient, ...)``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Wt = W.T

    def step(carry, _):
        v = Wt @ carry["u"]
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return {"u": u / jnp.linalg.norm(u), "v": v}, None

    init = {"u": u0, "v": jnp.zeros(W.shape[1], W.dtype)}
    final, _ = lax.scan(step, init, None, length=K, unroll=4)
    final = jax.tree.map(lax.stop_gradient, final)
    return jnp.einsum("i,ij,j->", final["u"], W, final["v"])
