"""mixed_precision_step: the scaler state a ``jax.tree_util.register_dataclass`` pytree (scale and
counter as data fields, the period a static meta field) passed through a jitted ``update``
method; the gradient with ``jax.value_and_grad`` of the scaled loss.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import dataclasses
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.tree_util.register_dataclass, data_fields=["scale", "count"],
                   meta_fields=["period"])
@dataclasses.dataclass
class ScalerState:
    scale: jax.Array
    count: jax.Array
    period: int

    @jax.jit
    def update(self, finite):
        nxt = self.count + 1
        full = nxt == self.period
        scale = jnp.where(finite, jnp.where(full, self.scale * 2, self.scale), self.scale / 2)
        count = jnp.where(finite, jnp.where(full, 0, nxt), 0).astype(jnp.int32)
        return ScalerState(scale, count, self.period)


def _loss(p, x, y):
    hid = jnp.tanh(jnp.dot(x, p["dense"]["w"]) + p["dense"]["b"])
    return jnp.mean((jnp.dot(hid, p["out"]["w"]) - y) ** 2)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    state = ScalerState(loss_scale, good_steps, period)
    half = functools.partial(jax.tree.map, lambda a: a.astype(jnp.float16))
    p16, x16, y16 = half(params), half(x), half(y)
    _, grads = jax.value_and_grad(lambda p: _loss(p, x16, y16) * state.scale.astype(jnp.float16))(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / state.scale, grads)
    finite = jax.tree.reduce(lambda acc, a: acc & jnp.all(jnp.isfinite(a)), g, jnp.bool_(True))
    new_params = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    state = state.update(finite)
    return {"params": new_params, "loss_scale": state.scale, "good_steps": state.count,
            "finite": finite}
