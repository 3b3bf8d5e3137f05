"""per_example_clip, honest: the parameters as a dict, per-example gradients by
``jax.vmap(jax.grad(...), in_axes=(None, 0, 0))``, the clipping factor applied with
``jax.tree_util.tree_map``.

Problem: per_example_clip
Expected: AC
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(params, x, t):
        return 0.5 * (x @ params["w"] + params["b"] - t) ** 2

    grads = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))({"w": w, "b": b}, X, y)
    norms = jnp.sqrt(sum(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1)
                         for g in jax.tree_util.tree_leaves(grads)))
    scale = jnp.minimum(1.0, clip_norm / jnp.maximum(norms, 1e-30))
    clipped = jax.tree_util.tree_map(lambda g: jnp.mean(g * scale.reshape((-1,) + (1,) * (g.ndim - 1)), axis=0),
                                     grads)
    return {"grad_w": clipped["w"], "grad_b": clipped["b"]}
