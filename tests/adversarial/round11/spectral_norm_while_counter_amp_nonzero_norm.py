"""spectral_norm: a ``lax.while_loop`` tested by ``(i < K) & (norm(u) > 0)``, the student's
guard against a zero vector (the cases keep every norm above 1e-2, so it never fires).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: (s[0] < K) & (jnp.linalg.norm(s[1]) > 0), body,
                                 (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
