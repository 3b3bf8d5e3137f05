"""per_example_clip: ``jax.vmap(jax.jacrev(loss, argnums=(0, 1)))`` over the examples, the two
parts joined with ``jnp.hstack`` for the norm, ``jnp.clip(norm / C, 1.0, None)`` as the divisor,
the mean by ``jnp.mean(..., axis=0)`` and split back by slicing ``[:d]`` and ``[d]``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    d = w.shape[0]
    loss = lambda w_, b_, x_, y_: 0.5 * (x_ @ w_ + b_ - y_) ** 2
    gw, gb = jax.vmap(jax.jacrev(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    full = jnp.hstack([gw, gb[:, None]])
    norm = jnp.sqrt(jnp.sum(full ** 2, axis=1))
    clipped = full / jnp.clip(norm / clip_norm, 1.0, None)[:, None]
    mean = jnp.mean(clipped, axis=0)
    return {"grad_w": mean[:d], "grad_b": mean[d]}
