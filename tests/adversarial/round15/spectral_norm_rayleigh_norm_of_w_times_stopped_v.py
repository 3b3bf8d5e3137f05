"""spectral_norm, honest: only v is carried out of the loop (stopped); since u = W v / ||W v||,
sigma = u^T W v is ||W v||, written as ``jnp.sqrt(jnp.vdot(Wv, Wv))`` (a Rayleigh quotient of
W^T W at v), whose derivative along dW is (W v)^T dW v / ||W v|| = u^T dW v.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def body(_, uv):
        u, _v = uv
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return u / jnp.linalg.norm(u), v

    _, v = lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    Wv = W @ v
    return jnp.sqrt(jnp.vdot(Wv, Wv))
