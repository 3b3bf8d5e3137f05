"""per_example_clip: each example's gradient read off the diagonal of a per-example outer
product (n, d+1, d+1) built with ``einsum``: within the cap at the examples' few features, far
above it at d = 16 for all but the largest n.

Problem: per_example_clip
Expected: RJ intermediate_too_large
Cases: all
"""

import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n, d = X.shape
    xa = jnp.concatenate([X, jnp.ones_like(X[:, :1])], axis=1)
    r = xa @ jnp.concatenate([w, b[None]]) - y
    outer = jnp.einsum("ni,nj->nij", xa, xa)
    g = r[:, None] * jnp.diagonal(outer, axis1=1, axis2=2) ** 0.5 * jnp.sign(xa)
    sq = jnp.sum(g * g, axis=1)
    nz = sq > 0
    f = jnp.where(nz, jnp.minimum(1.0, clip_norm / jnp.sqrt(jnp.where(nz, sq, 1.0))), 1.0)
    mean = jnp.mean(g * f[:, None], axis=0)
    return {"grad_w": mean[:d], "grad_b": mean[d]}
