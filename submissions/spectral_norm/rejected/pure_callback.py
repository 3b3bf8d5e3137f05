import jax
import jax.numpy as jnp
import numpy as np


def _norm(x):
    return np.float32(np.linalg.norm(x))


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    scalar = jax.ShapeDtypeStruct((), jnp.float32)

    def step(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jax.pure_callback(_norm, scalar, v)     # the norms computed by NumPy
        u = Wc @ v
        return u / jax.pure_callback(_norm, scalar, u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
