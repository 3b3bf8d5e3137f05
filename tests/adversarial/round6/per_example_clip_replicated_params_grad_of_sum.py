"""per_example_clip: the per-example gradient trick: w and b broadcast to one copy per example
((n, d) and (n,)), and ``jax.grad`` of the summed loss with respect to the copies gives each
example's gradient in its row; clipped with ``jnp.hypot`` of the two parts' norms.

Problem: per_example_clip
Expected: AC
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    W = jnp.broadcast_to(w, X.shape)
    B = jnp.broadcast_to(b, y.shape)

    def total_loss(W, B):
        pred = jnp.sum(W * X, axis=1) + B
        return jnp.sum(0.5 * (pred - y) ** 2)

    gw, gb = jax.grad(total_loss, argnums=(0, 1))(W, B)
    wsq = jnp.sum(gw * gw, axis=1)
    nz = (wsq + gb * gb) > 0
    norm = jnp.where(nz, jnp.hypot(jnp.sqrt(jnp.where(nz, wsq, 1.0)), gb), 0.0)
    scale = jnp.where(norm > clip_norm, clip_norm / jnp.where(nz, norm, 1.0), 1.0)
    return {"grad_w": jnp.mean(gw * scale[:, None], axis=0), "grad_b": jnp.mean(gb * scale)}
