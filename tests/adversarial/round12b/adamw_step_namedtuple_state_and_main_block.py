"""adamw_step: the moments kept in a ``typing.NamedTuple`` state, the update a method-free
function over it, and a ``if __name__ == "__main__":`` block left at the bottom that runs the
first example with NumPy inputs and prints the result (never run by the judge).

Problem: adamw_step
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class AdamState(NamedTuple):
    m: dict
    v: dict
    count: jax.Array


def update(params, grads, state: AdamState, lr, b1, b2, eps, wd):
    t = state.count + 1
    m = jax.tree_util.tree_map(lambda a, g: b1 * a + (1 - b1) * g, state.m, grads)
    v = jax.tree_util.tree_map(lambda a, g: b2 * a + (1 - b2) * g * g, state.v, grads)
    c1 = 1 - b1 ** t.astype(jnp.float32)
    c2 = 1 - b2 ** t.astype(jnp.float32)
    new = jax.tree_util.tree_map(
        lambda p, a, s: p - lr * (a / c1 / (jnp.sqrt(s / c2) + eps) + wd * p), params, m, v)
    return new, AdamState(m, v, t)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    new, state = update(params, grads, AdamState(m, v, count), lr, b1, b2, eps, weight_decay)
    return {"params": new, "m": state.m, "v": state.v, "count": state.count}


if __name__ == "__main__":
    p = {"w": np.array([1.0, -2.0], np.float32), "b": np.float32(0.5)}
    g = {"w": np.array([0.1, -0.2], np.float32), "b": np.float32(0.0)}
    z = jax.tree_util.tree_map(np.zeros_like, p)
    print(adamw_step(p, g, z, z, jnp.int32(0), 0.1, 0.9, 0.999, 1e-8, 0.01))
