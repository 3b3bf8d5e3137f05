"""per_example_clip: the per-example gradients without ``vmap``: ``jax.grad`` of the summed
losses with respect to the predictions gives each example's residual (the losses are separate),
and the outer product with ``[X, 1]`` (by ``jnp.hstack``) gives the per-example gradients.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    preds = X @ w + b
    residuals = jax.grad(lambda p: jnp.sum(0.5 * (p - y) ** 2))(preds)
    features = jnp.hstack([X, jnp.ones_like(preds)[:, None]])
    g = residuals[:, None] * features
    norm = jnp.sqrt(jnp.sum(g * g, axis=1))
    g = g * (1.0 / jnp.maximum(1.0, norm / clip_norm))[:, None]
    mean = g.mean(axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
