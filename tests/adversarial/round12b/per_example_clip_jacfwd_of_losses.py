"""per_example_clip: ``jax.jacfwd`` of the vector of losses with respect to (w, b) (the
(d + 1)-tangent basis the statement allows), the rows clipped by ``jnp.where`` on the norm.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    losses = lambda w_, b_: 0.5 * jnp.square(X @ w_ + b_ - y)
    gw, gb = jax.jacfwd(losses, argnums=(0, 1))(w, b)
    norm = jnp.sqrt(jnp.sum(gw * gw, axis=-1) + gb * gb)
    scale = jnp.where(norm > clip_norm, clip_norm / jnp.maximum(norm, clip_norm), 1.0)
    return {"grad_w": jnp.mean(gw * scale[:, None], axis=0), "grad_b": jnp.mean(gb * scale)}
