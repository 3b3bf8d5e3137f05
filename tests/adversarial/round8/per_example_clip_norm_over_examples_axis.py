"""per_example_clip: the per-example gradients computed right with ``jax.vmap(jax.grad)``, but
their norms taken with ``axis=0`` (over the examples, one norm per feature) instead of over each
example's d + 1 entries: the wrong reduction axis.

Problem: per_example_clip
Expected: WA
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    loss = lambda w_, b_, x, t: 0.5 * (x @ w_ + b_ - t) ** 2
    gw, gb = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    G = jnp.concatenate([gw, gb[:, None]], axis=1)
    norms = jnp.linalg.norm(G, axis=0)
    G = G / jnp.maximum(1.0, norms / clip_norm)
    mean = G.mean(axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
