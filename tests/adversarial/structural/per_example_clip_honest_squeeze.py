"""An honest batched clipped_mean_grad for per_example_clip: the residuals from a matrix product
squeezed to a vector, the per-example gradients as array operations, each clipped jointly. At
n = 1 jnp.squeeze also drops the example axis, so the program has one equation fewer than at
any other n; the values and shapes are still right and nothing loops over the examples.

Expected: AC
"""

import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = jnp.squeeze(X @ w[:, None]) + b - y          # (n,), or () at n = 1 before broadcasting
    gw = r[..., None] * X                            # (n, d)
    gb = r * jnp.ones_like(y)                        # (n,)
    norms = jnp.sqrt(jnp.sum(gw * gw, axis=1) + gb * gb)
    scale = 1.0 / jnp.maximum(1.0, norms / clip_norm)
    return {"grad_w": jnp.mean(gw * scale[:, None], axis=0), "grad_b": jnp.mean(gb * scale)}
