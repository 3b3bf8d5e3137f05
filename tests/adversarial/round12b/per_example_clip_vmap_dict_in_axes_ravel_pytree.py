"""per_example_clip: the batch given to ``jax.vmap`` as a dict with ``in_axes=(None, {"x": 0,
"y": 0})``, each example's gradient flattened by ``jax.flatten_util.ravel_pytree`` inside the
vmapped function and clipped there, the mean of the clipped vectors unraveled at the end.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def clipped_mean_grad(w, b, X, y, clip_norm):
    params = (w, b)

    def per_example(p, batch):
        g = jax.grad(lambda q: 0.5 * (batch["x"] @ q[0] + q[1] - batch["y"]) ** 2)(p)
        flat, _ = ravel_pytree(g)
        n = jnp.sqrt(jnp.sum(flat ** 2))
        return flat / jnp.maximum(1.0, n / clip_norm)

    clipped = jax.vmap(per_example, in_axes=(None, {"x": 0, "y": 0}))(params, {"x": X, "y": y})
    _, unravel = ravel_pytree(params)
    gw, gb = unravel(clipped.mean(axis=0))
    return {"grad_w": gw, "grad_b": gb}
