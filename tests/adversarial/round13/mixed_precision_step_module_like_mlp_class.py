"""mixed_precision_step: a module-like class (no flax) for the network, its ``__call__`` the
forward pass on float16 params, and a small loss-scale class with ``adjust``; both called
normally.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class MLP:
    def __call__(self, p, x):
        hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
        return hid @ p["out"]["w"]


class DynamicScale:
    def __init__(self, period):
        self.period = period

    def adjust(self, finite, scale, good):
        grow = good + 1 == self.period
        new_scale = jnp.where(finite, jnp.where(grow, scale * 2, scale), scale / 2)
        new_good = jnp.where(finite, jnp.where(grow, 0, good + 1), 0)
        return new_scale, new_good.astype(jnp.int32)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    net = MLP()
    cast = lambda t, dt: jax.tree_util.tree_map(lambda a: a.astype(dt), t)
    x16, y16 = cast((x, y), jnp.float16)

    def loss(p):
        return jnp.mean((net(p, x16) - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a / loss_scale, cast(jax.grad(loss)(cast(params, jnp.float16)), jnp.float32))
    finite = jnp.array(True)
    for leaf in jax.tree_util.tree_leaves(g):
        finite = finite & jnp.isfinite(leaf).all()
    stepped = jax.tree_util.tree_map(lambda p, d: p - lr * d, params, g)
    new_params = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a, b), stepped, params)
    scale, good = DynamicScale(period).adjust(finite, loss_scale, good_steps)
    return {"params": new_params, "loss_scale": scale, "good_steps": good, "finite": finite}
