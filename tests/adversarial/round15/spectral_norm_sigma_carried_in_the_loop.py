"""spectral_norm, honest: sigma computed in every trip and carried out of the loop, the vectors
from the stopped W and sigma from the W the judge differentiates, so that the derivative flows
only through the last trip's ``u @ W @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def body(_, carry):
        u, _sigma = carry
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        u = u / jnp.linalg.norm(u)
        return u, u @ W @ v

    _, sigma = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros((), W.dtype)))
    return sigma
