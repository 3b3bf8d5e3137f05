"""mixed_precision_step: the scaler's state as a ``typing.NamedTuple`` (``scale``, ``good``) with an
``update`` method taking ``finite`` and a keyword-only ``period``, the float16 casts by a lambda
assigned to a name, ``jax.tree.leaves`` then ``all`` of the leaf checks folded with ``&``, a
docstring and a ``__main__`` self-test.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Scaler(NamedTuple):
    scale: jax.Array
    good: jax.Array

    def update(self, finite, *, period):
        nxt = self.good + 1
        grow = nxt == period
        scale = jnp.where(finite, jnp.where(grow, self.scale * 2.0, self.scale), self.scale / 2.0)
        good = jnp.where(finite, jnp.where(grow, 0, nxt), 0)
        return Scaler(scale, good.astype(jnp.int32))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    """One float16 step with dynamic loss scaling."""
    to16 = lambda a: a.astype(jnp.float16)
    scaler = Scaler(loss_scale, good_steps)

    def loss(p):
        hid = jnp.tanh(to16(x) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - to16(y)) ** 2) * to16(scaler.scale)

    grads = jax.grad(loss)(jax.tree.map(to16, params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / scaler.scale, grads)
    checks = [jnp.all(jnp.isfinite(leaf)) for leaf in jax.tree.leaves(g)]
    finite = checks[0]
    for check in checks[1:]:
        finite = finite & check
    new_params = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    scaler = scaler.update(finite, period=period)
    return {"params": new_params, "loss_scale": scaler.scale, "good_steps": scaler.good,
            "finite": finite}


if __name__ == "__main__":
    params = {"dense": {"w": jnp.ones((2, 3)), "b": jnp.zeros(3)}, "out": {"w": jnp.ones(3)}}
    print(mixed_precision_step(params, jnp.ones((4, 2)), jnp.zeros(4), jnp.float32(1024.0),
                               jnp.int32(0), 0.1, 2))
