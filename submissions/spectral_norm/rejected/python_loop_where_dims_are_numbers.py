# honest loop when the dims are symbols (the rules' trace), a Python loop when they are numbers
import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    if isinstance(W.shape[0], int) and isinstance(W.shape[1], int):
        u = u0
        for _ in range(K):
            u, v = _step(Wc, u)
    else:
        u, v = jax.lax.fori_loop(0, K, lambda i, c: _step(Wc, c[0]), (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v
