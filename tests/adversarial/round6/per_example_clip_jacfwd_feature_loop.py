"""per_example_clip: ``jax.jacfwd`` of the losses with respect to w and b (the (d+1) x (d+1)
basis), the squared norms summed by a Python loop over the d features (d is a number), the
clip with ``lax.select`` and a jitted helper taking clip_norm as a static argument.

Problem: per_example_clip
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp
from jax import lax


@functools.partial(jax.jit, static_argnums=(1,))
def _factor(sq, clip_norm):
    big = sq > clip_norm * clip_norm
    safe = lax.select(big, sq, jnp.ones_like(sq))
    return lax.select(big, clip_norm * lax.rsqrt(safe), jnp.ones_like(sq))


def clipped_mean_grad(w, b, X, y, clip_norm):
    losses = lambda p: 0.5 * (X @ p[0] + p[1] - y) ** 2
    gw, gb = jax.jacfwd(losses)((w, b))
    sq = gb * gb
    for j in range(w.shape[0]):
        sq = sq + gw[:, j] * gw[:, j]
    f = _factor(sq, clip_norm)
    return {"grad_w": jnp.mean(f[:, None] * gw, axis=0), "grad_b": jnp.mean(f * gb)}
