"""per_example_clip: one example's gradient, clipped with a ``lax.cond`` on norm > clip_norm
(under ``jax.vmap`` the cond becomes a select that computes both branches, the division guarded),
the mean over the mapped results.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def clipped_mean_grad(w, b, X, y, clip_norm):
    def one(x, t):
        r = jnp.dot(x, w) + b - t
        g = jnp.append(r * x, r)
        norm = jnp.sqrt(jnp.sum(g * g))
        return lax.cond(norm > clip_norm,
                        lambda g: g * (clip_norm / jnp.maximum(norm, clip_norm)),
                        lambda g: g, g)

    G = jax.vmap(one)(X, y).mean(axis=0)
    return {"grad_w": G[:-1], "grad_b": G[-1]}
