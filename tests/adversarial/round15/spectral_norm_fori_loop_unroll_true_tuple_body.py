"""spectral_norm, honest: ``lax.fori_loop(0, K, body, (u, v), unroll=True)``, the body
returning a tuple; fully unrolled only when compiled, the traced program is one ``scan`` of K
trips whatever K is.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def body(_, carry):
        u, _v = carry
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return u / jnp.linalg.norm(u), v

    u, v = lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)), unroll=True)
    return jnp.einsum("i,ij,j->", u, W, v)
