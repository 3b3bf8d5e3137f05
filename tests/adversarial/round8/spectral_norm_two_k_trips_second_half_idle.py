"""spectral_norm: a flat ``fori_loop`` of 2K trips (the count a loop of half steps may run) whose
first K trips run full steps and whose last K trips, masked, change nothing: the loop's last trip
is no step, so one trip fewer leaves the output as it is.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _unit(x):
    return x / jnp.linalg.norm(x)


def spectral_norm(W, u0, K):
    Wc = lax.stop_gradient(W)

    def body(i, uv):
        u, v = uv
        nv = _unit(Wc.T @ u)
        nu = _unit(Wc @ nv)
        live = i < K
        return jnp.where(live, nu, u), jnp.where(live, nv, v)

    u, v = lax.fori_loop(0, 2 * K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
