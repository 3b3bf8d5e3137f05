"""spectral_norm: the SVD reached through a name built at run time (``getattr`` on
``jnp.linalg`` with a joined string), used to replace the last step's vectors once the loop
has run; a K-trip loop stays as cover.

Problem: spectral_norm
Expected: RJ forbidden_primitive
"""

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
    decompose = getattr(jnp.linalg, "".join(["s", "v", "d"]))
    U, s, Vt = decompose(Wc, full_matrices=False)
    close = jnp.abs(u @ U[:, 0]) > 0.999999
    u = jnp.where(close, U[:, 0] * jnp.sign(u @ U[:, 0]), u)
    v = jnp.where(close, Vt[0] * jnp.sign(v @ Vt[0]), v)
    return u @ W @ v
