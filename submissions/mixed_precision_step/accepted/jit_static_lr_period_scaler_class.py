import functools

import jax
import jax.numpy as jnp


class Scaler:
    """Dynamic loss-scaling state machine."""

    def __init__(self, period):
        self.period = period

    def update(self, finite, scale, steps):
        nxt = steps + 1
        grow = nxt == self.period
        scale = jnp.where(finite, scale * jnp.where(grow, 2.0, 1.0), scale * 0.5)
        steps = jnp.where(finite, jnp.where(grow, 0, nxt), 0)
        return scale.astype(jnp.float32), steps.astype(jnp.int32)


@jax.jit
def _grads16(p16, x16, y16, s16):
    def loss(p):
        w, b = p["dense"]["w"], p["dense"]["b"]
        pred = jnp.einsum("nh,h->n", jnp.tanh(jnp.einsum("nd,dh->nh", x16, w) + b), p["out"]["w"])
        return ((pred - y16) ** 2).mean() * s16
    return jax.grad(loss)(p16)


@functools.partial(jax.jit, static_argnames=("lr", "period"))
def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    to16 = functools.partial(jax.tree_util.tree_map, lambda a: a.astype(jnp.float16))
    g16 = _grads16(to16(params), *to16((x, y)), loss_scale.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = functools.reduce(jnp.logical_and, [jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)])
    params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    scale, steps = Scaler(period).update(finite, loss_scale, good_steps)
    return {"params": params, "loss_scale": scale, "good_steps": steps, "finite": finite}
