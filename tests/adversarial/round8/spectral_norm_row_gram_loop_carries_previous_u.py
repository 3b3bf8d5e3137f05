"""spectral_norm: the iteration on u alone with the row Gram matrix A = W W^T (u <- A u / |A u|
is one full step), the loop carrying the previous u beside the current one, so that the last
step's v = W^T u_(K-1) / |W^T u_(K-1)| is recovered after the loop; both stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    A = lax.stop_gradient(W @ W.T)

    def step(_, pair):
        _, cur = pair
        nxt = A @ cur
        return cur, nxt / jnp.linalg.norm(nxt)

    prev, u = lax.fori_loop(0, K, step, (u0, u0))
    v = W.T @ prev
    v = v / jnp.linalg.norm(v)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return jnp.vdot(u, W @ v)
