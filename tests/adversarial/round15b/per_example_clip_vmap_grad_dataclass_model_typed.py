"""per_example_clip: a registered dataclass ``Params(w, b)`` (``jax.tree_util.register_dataclass``),
``jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))`` over the examples giving a batched
``Params``, the joint norm over both fields by ``jax.tree_util.tree_reduce``, and the clip as a
``tree_map``; type annotations throughout.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Params:
    w: jax.Array
    b: jax.Array


jax.tree_util.register_dataclass(Params, data_fields=["w", "b"], meta_fields=[])


def loss(p: Params, xi: jax.Array, yi: jax.Array) -> jax.Array:
    return 0.5 * (jnp.dot(xi, p.w) + p.b - yi) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm: float):
    g: Params = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(Params(w, b), X, y)
    sq = jax.tree_util.tree_reduce(
        lambda acc, leaf: acc + jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=1),
        g, jnp.zeros(X.shape[0], X.dtype))
    factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(sq) / clip_norm)
    clipped = jax.tree_util.tree_map(
        lambda leaf: leaf * factor.reshape((-1,) + (1,) * (leaf.ndim - 1)), g)
    return {"grad_w": jnp.mean(clipped.w, axis=0), "grad_b": jnp.mean(clipped.b)}
