"""per_example_clip: the per-example gradients as ``jax.jacrev`` of the vector of the n losses with
respect to ``(w, b)`` (rows ``(n, d)`` and ``(n,)``), clipped jointly and averaged with
``jnp.einsum("n,nd->d", ...)``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    losses = lambda w_, b_: 0.5 * jnp.square(X @ w_ + b_ - y)
    gw, gb = jax.jacrev(losses, argnums=(0, 1))(w, b)
    norm = jnp.sqrt(jnp.sum(gw * gw, axis=-1) + gb * gb)
    keep = 1.0 / jnp.maximum(1.0, norm / clip_norm)
    n = X.shape[0]
    return {"grad_w": jnp.einsum("n,nd->d", keep, gw) / n, "grad_b": jnp.dot(keep, gb) / n}
