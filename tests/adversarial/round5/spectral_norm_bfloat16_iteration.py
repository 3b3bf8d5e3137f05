"""spectral_norm: the iteration in bfloat16 "for speed", the final product in float32: u and v
carry bfloat16 rounding (about 4e-3), far beyond the tolerance.

Problem: spectral_norm
Expected: WA
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wb = jax.lax.stop_gradient(W).astype(jnp.bfloat16)

    def step(_, carry):
        u, _ = carry
        v = Wb.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wb @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0.astype(jnp.bfloat16), jnp.zeros(W.shape[1], jnp.bfloat16)))
    return u.astype(jnp.float32) @ W @ v.astype(jnp.float32)
