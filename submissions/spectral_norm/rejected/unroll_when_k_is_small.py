import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    uv = (u0, jnp.zeros(W.shape[1], W.dtype))
    if K <= 8:  # a few steps: unrolled in Python, a loop primitive only for the long runs
        for i in range(K):
            uv = step(i, uv)
    else:
        uv = jax.lax.fori_loop(0, K, step, uv)
    u, v = uv
    return u @ W @ v
