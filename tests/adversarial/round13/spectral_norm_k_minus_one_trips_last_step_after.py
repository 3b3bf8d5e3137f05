"""spectral_norm: K - 1 steps in a ``fori_loop`` on the stopped W, the last step written out
after it (its v and u the ones sigma needs), then ``u @ W @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(u):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u = jax.lax.fori_loop(0, K - 1, lambda _, u: step(u)[0], u0)
    u, v = step(u)
    return u @ W @ v
