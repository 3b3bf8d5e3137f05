"""spectral_norm: the student keeps the iterates bounded by dividing by their largest entry in
magnitude (cheaper than a norm), and normalises by the 2-norm only after the loop: the
directions are those of the statement's recurrence, so the last u and v are the same unit
vectors up to rounding.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _rescale(x):
    return x / jnp.max(jnp.abs(x))


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def step(carry, _):
        u, _v = carry
        v = _rescale(Ws.T @ u)
        u = _rescale(Ws @ v)
        return (u, v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=K)
    v = v / jnp.linalg.norm(v)
    u = Ws @ v
    u = u / jnp.linalg.norm(u)
    return jnp.dot(u, jnp.dot(W, v))
