"""per_example_clip: the parameters as a dict, ``jax.vmap(jax.grad(loss))`` with ``in_axes=(None,
0, 0)``, each example's gradient flattened with a vmapped ``ravel_pytree``, the clip factor from
``jnp.linalg.norm`` guarded by a double where, and the mean unravelled.

Problem: per_example_clip
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def _loss(params, x, target):
    pred = jnp.dot(x, params["w"]) + params["b"]
    return 0.5 * (pred - target) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    params = {"w": w, "b": b}
    grads = jax.vmap(jax.grad(_loss), in_axes=(None, 0, 0))(params, X, y)
    flat = jax.vmap(lambda g: ravel_pytree(g)[0])(grads)
    _, unravel = ravel_pytree(params)
    sq = jnp.sum(flat * flat, axis=1)
    nz = sq > 0
    norms = jnp.where(nz, jnp.linalg.norm(jnp.where(nz[:, None], flat, 1.0), axis=1), 0.0)
    factor = 1.0 / jnp.maximum(1.0, norms / clip_norm)
    mean = jnp.mean(flat * factor[:, None], axis=0)
    out = unravel(mean)
    return {"grad_w": out["w"], "grad_b": out["b"]}
