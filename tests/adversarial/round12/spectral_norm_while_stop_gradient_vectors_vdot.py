"""spectral_norm: the loop runs on W itself (not stopped), a ``lax.while_loop`` (which JAX
cannot differentiate in reverse mode, so u and v are stopped after it), sigma by
``jnp.vdot(u, W @ v)``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def cond(s):
        return s[0] < K

    def body(s):
        i, u, _ = s
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros_like(W[0])))
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return jnp.vdot(u, W @ v)
