"""per_example_clip: the parameters as a ``typing.NamedTuple``, ``jax.vmap(jax.grad(loss),
in_axes=(None, 0, 0))`` giving a ``Params`` of batched leaves, the per-example squared norm as
the builtin ``sum`` over ``jax.tree.leaves`` of row sums (a fixed two leaves), the scaling and
the mean by ``jax.tree.map``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Params(NamedTuple):
    w: jax.Array
    b: jax.Array


def _loss(p, x, t):
    return 0.5 * jnp.square(x @ p.w + p.b - t)


def clipped_mean_grad(w, b, X, y, clip_norm):
    grads = jax.vmap(jax.grad(_loss), in_axes=(None, 0, 0))(Params(w, b), X, y)
    row_sq = lambda g: jnp.sum(jnp.square(g).reshape(g.shape[0], -1), axis=1)
    sq = sum(row_sq(g) for g in jax.tree.leaves(grads))
    factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(sq) / clip_norm)
    scaled = jax.tree.map(lambda g: g * factor.reshape((-1,) + (1,) * (g.ndim - 1)), grads)
    mean = jax.tree.map(lambda g: jnp.mean(g, axis=0), scaled)
    return {"grad_w": mean.w, "grad_b": mean.b}
