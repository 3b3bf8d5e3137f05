import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    # 64 steps written out, those past K masked: never grows with K, but no loop runs them
    Wc = jax.lax.stop_gradient(W)
    u, v = u0, jnp.zeros(W.shape[1], W.dtype)
    for i in range(64):
        v_new = Wc.T @ u
        v_new = v_new / jnp.linalg.norm(v_new)
        u_new = Wc @ v_new
        u_new = u_new / jnp.linalg.norm(u_new)
        keep = i < K
        u, v = jnp.where(keep, u_new, u), jnp.where(keep, v_new, v)
    return u @ W @ v
