import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, uvp):
        u, _, _ = uvp
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        new = Wc @ v
        return new / jnp.linalg.norm(new), v, u

    # sigma from the u the last step started from, not the one it made
    _, v, u_before = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype), u0))
    u_before = u_before / jnp.linalg.norm(u_before)
    return u_before @ W @ v
