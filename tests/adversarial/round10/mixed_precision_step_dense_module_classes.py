"""mixed_precision_step: flax-like module classes written by hand (a ``Dense`` with ``__call__``
and an ``MLP`` holding two), a ``Policy`` that casts a tree to the compute dtype, the dot
products by ``lax.dot_general`` with ``preferred_element_type=float16``, the loss as
``jnp.mean(jnp.square(err)) * scale``, the counter and scale updated with ``lax.select``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp
from jax import lax


@dataclasses.dataclass(frozen=True)
class Policy:
    compute: object = jnp.float16
    param: object = jnp.float32

    def to_compute(self, tree):
        return jax.tree_util.tree_map(lambda a: a.astype(self.compute), tree)

    def to_param(self, tree):
        return jax.tree_util.tree_map(lambda a: a.astype(self.param), tree)


def _matmul(a, b):
    return lax.dot_general(a, b, (((a.ndim - 1,), (0,)), ((), ())), preferred_element_type=jnp.float16)


class Dense:
    def __init__(self, name, bias=True):
        self.name, self.bias = name, bias

    def __call__(self, p, h):
        out = _matmul(h, p[self.name]["w"])
        return out + p[self.name]["b"] if self.bias else out


class MLP:
    def __init__(self):
        self.hidden, self.head = Dense("dense"), Dense("out", bias=False)

    def __call__(self, p, x):
        return self.head(p, jnp.tanh(self.hidden(p, x)))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    policy, model = Policy(), MLP()
    x16, y16 = policy.to_compute((x, y))
    scale16 = loss_scale.astype(jnp.float16)

    def loss(p):
        err = model(p, x16) - y16
        return jnp.mean(jnp.square(err)) * scale16

    g = jax.tree_util.tree_map(lambda a: a / loss_scale, policy.to_param(jax.grad(loss)(policy.to_compute(params))))
    finite = jnp.all(jnp.asarray([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    full = good_steps + 1 == period
    new_params = jax.tree_util.tree_map(lambda p, d: lax.select(finite, p - lr * d, p), params, g)
    grown = lax.select(full, loss_scale * 2, loss_scale)
    return {"params": new_params,
            "loss_scale": lax.select(finite, grown, loss_scale / 2),
            "good_steps": lax.select(finite, lax.select(full, jnp.int32(0), good_steps + 1), jnp.int32(0)),
            "finite": finite}
