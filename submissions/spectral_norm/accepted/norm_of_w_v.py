import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    # sigma = u^T W v = |W v|, since u = W v / |W v|: its derivative with v held constant is
    # (W v / |W v|) v^T = u v^T as well
    def step(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    _, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jnp.linalg.norm(W @ jax.lax.stop_gradient(v))
