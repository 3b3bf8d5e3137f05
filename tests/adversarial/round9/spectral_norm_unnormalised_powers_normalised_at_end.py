"""spectral_norm: a plausible wrong answer: the student drops the per-step normalisation
(it does not change the directions on paper) and normalises u and v only after the loop of K
trips. In float32 the unnormalised powers of W^T W overflow at large K (||W^T W|| reaches the
thousands), so sigma and its gradient come out NaN there.

Problem: spectral_norm
Expected: WA
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def body(_, uv):
        u, _ = uv
        v = Ws.T @ u
        return Ws @ v, v

    u, v = lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1])))
    u = u / jnp.linalg.norm(u)
    v = v / jnp.linalg.norm(v)
    return u @ W @ v
