"""spectral_norm: a loop of ``2K`` half steps, each trip updating ``v`` or ``u`` by
``jax.lax.cond`` on the trip's parity (``i % 2 == 0``), the last ``u`` and ``v`` stopped and
sigma ``u @ W @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def half(i, uv):
        u, v = uv

        def update_v(uv):
            u, _ = uv
            nv = Ws.T @ u
            return u, nv / jnp.linalg.norm(nv)

        def update_u(uv):
            _, v = uv
            nu = Ws @ v
            return nu / jnp.linalg.norm(nu), v

        return jax.lax.cond(i % 2 == 0, update_v, update_u, (u, v))

    u, v = jax.lax.fori_loop(0, 2 * K, half, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
