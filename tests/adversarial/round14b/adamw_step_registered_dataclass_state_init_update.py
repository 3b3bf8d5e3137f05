"""adamw_step: an optax-like ``AdamW`` class with ``init`` and ``update`` methods over a state
``dataclass`` registered with ``jax.tree_util.register_dataclass`` (moments as data fields, the
count too); the bias corrections by ``jnp.power`` of the float step.

Problem: adamw_step
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class AdamWState:
    mu: dict
    nu: dict
    count: jax.Array


@dataclass(frozen=True)
class AdamW:
    lr: float
    b1: float
    b2: float
    eps: float
    weight_decay: float

    def update(self, grads, state: AdamWState, params):
        t = state.count + 1
        tf = t.astype(jnp.float32)
        mu = jax.tree_util.tree_map(lambda m, g: self.b1 * m + (1 - self.b1) * g, state.mu, grads)
        nu = jax.tree_util.tree_map(lambda v, g: self.b2 * v + (1 - self.b2) * g * g, state.nu, grads)
        c1 = 1 - jnp.power(jnp.float32(self.b1), tf)
        c2 = 1 - jnp.power(jnp.float32(self.b2), tf)

        def new_param(p, m, v):
            return p - self.lr * ((m / c1) / (jnp.sqrt(v / c2) + self.eps) + self.weight_decay * p)

        params = jax.tree_util.tree_map(new_param, params, mu, nu)
        return params, AdamWState(mu, nu, t)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    opt = AdamW(lr, b1, b2, eps, weight_decay)
    new_params, state = opt.update(grads, AdamWState(m, v, count), params)
    return {"params": new_params, "m": state.mu, "v": state.nu, "count": state.count}
