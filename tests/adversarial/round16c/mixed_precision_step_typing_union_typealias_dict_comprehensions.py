"""mixed_precision_step: hints with ``Union[jax.Array, float]``, ``jax.typing.ArrayLike`` and a
``TypeAlias`` for the params dict; the float16 copy of the params by a dict comprehension over
``.items()`` (two levels), ``jax.value_and_grad`` with the unscaled loss as its value.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from typing import Dict, TypeAlias, Union

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

Params: TypeAlias = Dict[str, Dict[str, jax.Array]]


def to_half(params: Params) -> Params:
    return {name: {k: v.astype(jnp.float16) for k, v in layer.items()}
            for name, layer in params.items()}


def mixed_precision_step(params: Params, x: ArrayLike, y: ArrayLike, loss_scale: jax.Array,
                         good_steps: jax.Array, lr: Union[float, jax.Array], period: int) -> dict:
    x16 = jnp.asarray(x).astype(jnp.float16)
    y16 = jnp.asarray(y).astype(jnp.float16)
    s16 = loss_scale.astype(jnp.float16)

    def scaled_loss(p: Params):
        h = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        loss = jnp.mean((h @ p["out"]["w"] - y16) ** 2)
        return loss * s16, loss

    (_, _loss), grads = jax.value_and_grad(scaled_loss, has_aux=True)(to_half(params))
    g = {name: {k: v.astype(jnp.float32) / loss_scale for k, v in layer.items()}
         for name, layer in grads.items()}
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(v)) for layer in g.values()
                                for v in layer.values()]))
    new_params = {name: {k: jnp.where(finite, v - lr * g[name][k], v) for k, v in layer.items()}
                  for name, layer in params.items()}
    done = good_steps + 1 == period
    new_scale = jnp.where(finite, loss_scale * jnp.where(done, 2.0, 1.0), loss_scale * 0.5)
    new_good = jnp.where(finite, jnp.where(done, 0, good_steps + 1), 0)
    return {"params": new_params, "loss_scale": new_scale.astype(jnp.float32),
            "good_steps": new_good.astype(jnp.int32), "finite": finite}
