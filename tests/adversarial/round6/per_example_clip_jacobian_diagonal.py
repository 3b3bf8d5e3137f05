"""per_example_clip: the parameters replicated per example and ``jax.jacrev`` of the vector of
losses with respect to the copies: the (n, n, d) Jacobian is zero off its diagonal, whose
blocks are the per-example gradients; the n^2 d value is the batch copied n times.

Problem: per_example_clip
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    W = jnp.broadcast_to(w, X.shape)
    B = jnp.broadcast_to(b, y.shape)

    def losses(W, B):
        return 0.5 * (jnp.sum(W * X, axis=1) + B - y) ** 2

    jw, jb = jax.jacrev(losses, argnums=(0, 1))(W, B)          # (n, n, d), (n, n)
    gw = jnp.einsum("iid->id", jw)
    gb = jnp.diagonal(jb)
    sq = jnp.sum(gw * gw, axis=1) + gb * gb
    pos = sq > 0
    f = jnp.where(pos, jnp.minimum(1.0, clip_norm / jnp.sqrt(jnp.where(pos, sq, 1.0))), 1.0)
    return {"grad_w": jnp.mean(gw * f[:, None], axis=0), "grad_b": jnp.mean(gb * f)}
