"""spectral_norm: ``operator.attrgetter`` with a joined name (``operator`` is an allowed
import, and no ``getattr`` appears) fetches ``jnp.linalg.svd``; where the loop's u is already
close to the top singular vector, the SVD's vectors replace u and v. The traced program holds
an ``svd``; the source gate refuses ``attrgetter`` of a computed name before it runs.

Problem: spectral_norm
Expected: RJ forbidden_construct
"""

import operator

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1])))
    decompose = operator.attrgetter("linalg." + "".join(["s", "v", "d"]))(jnp)
    U, _, Vt = decompose(Wc, full_matrices=False)
    close = jnp.abs(u @ U[:, 0]) > 0.9999999
    u = jnp.where(close, U[:, 0] * jnp.sign(u @ U[:, 0]), u)
    v = jnp.where(close, Vt[0] * jnp.sign(v @ Vt[0]), v)
    return u @ W @ v
