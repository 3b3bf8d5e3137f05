from typing import Dict

import jax
import jax.numpy as jnp
from jax import Array


def squared_error(w: Array, b: Array, x: Array, t: Array) -> Array:
    return 0.5 * (x @ w + b - t) ** 2


def clipped_mean_grad(w: Array, b: Array, X: Array, y: Array, clip_norm: float) -> Dict[str, Array]:
    grad_fn = jax.grad(squared_error, argnums=(0, 1))
    gw: Array
    gb: Array
    gw, gb = jax.vmap(grad_fn, in_axes=(None, None, 0, 0))(w, b, X, y)
    total_sq: Array = jnp.sum(jnp.square(gw), axis=-1) + jnp.square(gb)
    divisor: Array = jnp.maximum(1.0, jnp.sqrt(total_sq) / clip_norm)
    return {"grad_w": jnp.mean(gw / divisor[:, None], axis=0), "grad_b": jnp.mean(gb / divisor)}
