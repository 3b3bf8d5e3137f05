"""Honest: an lru_cache'd builder keyed on clip_norm, a dict of parameters handled with
jax.tree_util, jax.value_and_grad with has_aux, jnp.linalg.norm and optax-like clipping."""
import functools

import jax
import jax.numpy as jnp


def _loss(params, x, t):
    p = jnp.dot(x, params["w"]) + params["b"]
    err = p - t
    return 0.5 * err ** 2, err


@functools.lru_cache(maxsize=8)
def _step(clip_norm: float):
    per_example = jax.vmap(jax.value_and_grad(_loss, has_aux=True), in_axes=(None, 0, 0))

    def step(params, X, y):
        (_, _), grads = per_example(params, X, y)
        leaves = jax.tree_util.tree_leaves(grads)
        flat = jnp.concatenate([l.reshape(l.shape[0], -1) for l in leaves], axis=1)
        norms = jnp.linalg.norm(flat, axis=1)
        scale = jnp.minimum(1.0, clip_norm / jnp.maximum(norms, 1e-30))
        scale = jnp.where(norms > clip_norm, scale, 1.0)
        return jax.tree_util.tree_map(
            lambda g: jnp.mean(g * scale.reshape((-1,) + (1,) * (g.ndim - 1)), axis=0), grads)
    return jax.jit(step)


def clipped_mean_grad(w, b, X, y, clip_norm):
    out = _step(float(clip_norm))({"w": w, "b": b}, X, y)
    return {"grad_w": out["w"], "grad_b": out["b"]}
