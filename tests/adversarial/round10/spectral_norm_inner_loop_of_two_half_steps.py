"""spectral_norm: each of the K trips of the outer ``fori_loop`` runs an inner ``fori_loop`` of two
trips, one half step each (the first maps u to v by W^T, the second v to u by W, picked by
``lax.cond`` on the inner counter): a fixed inner loop, but of the two half steps of one step.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _unit(x):
    return x / jnp.linalg.norm(x)


def spectral_norm(W, u0, K):
    Wd = lax.stop_gradient(W)

    def half(j, uv):
        u, v = uv
        return lax.cond(j == 0,
                        lambda: (u, _unit(Wd.T @ u)),
                        lambda: (_unit(Wd @ v), v))

    def step(_, uv):
        return lax.fori_loop(0, 2, half, uv)

    u, v = lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], jnp.float32)))
    return jnp.einsum("i,ij,j->", u, W, v)
