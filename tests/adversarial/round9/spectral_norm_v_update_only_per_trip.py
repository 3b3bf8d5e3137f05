"""spectral_norm: a plausible wrong answer: the student reads one "step" as one half step and
alternates the two updates across trips (v on even trips, u on odd ones, chosen by
``lax.cond``), so K trips make only K / 2 of the statement's steps.

Problem: spectral_norm
Expected: WA
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def body(i, uv):
        u, v = uv

        def update_v(uv):
            w = W.T @ uv[0]
            return uv[0], w / jnp.linalg.norm(w)

        def update_u(uv):
            w = W @ uv[1]
            return w / jnp.linalg.norm(w), uv[1]

        return lax.cond(i % 2 == 0, update_v, update_u, (u, v))

    u, v = lax.fori_loop(0, K, body, (u0, W.T @ u0 / jnp.linalg.norm(W.T @ u0)))
    u = u / jnp.linalg.norm(u)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v
