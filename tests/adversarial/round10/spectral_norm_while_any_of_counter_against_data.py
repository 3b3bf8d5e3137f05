"""spectral_norm, cheat: a ``lax.while_loop`` whose test, wrapped in ``jnp.any``, joins ``i < K``
with ``i < n`` where n is computed from W (a bound of 3 in disguise): the loop stops where the
data says, not at K, and wrapping the test in ``jnp.any`` of one bool hides nothing.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    bound = (jnp.sum(W * 0.0) + 3.0).astype(jnp.int32)

    def body(state):
        i, u, v = state
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
        return i + 1, u, v

    cond = lambda s: jnp.any((s[0] < K) & (s[0] < bound))
    _, u, v = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.stop_gradient((u, v))
    return u @ W @ v
