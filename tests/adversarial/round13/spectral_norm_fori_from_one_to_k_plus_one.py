"""spectral_norm: ``lax.fori_loop(1, K + 1, ...)`` (the steps numbered from one), the pair of
vectors a dict carried through the loop, stopped after it.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(i, s):
        v = W.T @ s["u"]
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return {"u": u / jnp.linalg.norm(u), "v": v}

    s = jax.lax.fori_loop(1, K + 1, step, {"u": u0, "v": jnp.zeros(W.shape[1], W.dtype)})
    s = jax.tree_util.tree_map(jax.lax.stop_gradient, s)
    return s["u"] @ W @ s["v"]
