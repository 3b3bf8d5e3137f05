"""spectral_norm: the iteration runs on W divided by its Frobenius norm (a student guarding
against overflow; the normalised directions are the same), on a stopped copy of W, in a
``lax.fori_loop``; sigma is u^T W v with the original W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)
    Wn = Ws / jnp.sqrt(jnp.sum(Ws ** 2))

    def body(_, carry):
        u, v = carry
        v = Wn.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wn @ v
        u = u / jnp.linalg.norm(u)
        return u, v

    u, v = lax.fori_loop(0, K, body, (u0 / jnp.linalg.norm(u0), jnp.zeros_like(Ws[0])))
    return jnp.vdot(u, W @ v)
