"""adamw_step: the optimizer state as a class registered with
``jax.tree_util.register_pytree_node`` (its children the moments and the count), the step a
method jitted with ``static_argnames`` for the five hyperparameters, a ``print`` at trace time
and an ``if __name__ == "__main__"`` demonstration.

Problem: adamw_step
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


class State:
    def __init__(self, m, v, count):
        self.m, self.v, self.count = m, v, count


jax.tree_util.register_pytree_node(
    State,
    lambda s: ((s.m, s.v, s.count), None),
    lambda _, children: State(*children),
)


@functools.partial(jax.jit, static_argnames=("lr", "b1", "b2", "eps", "weight_decay"))
def _step(params, grads, state, *, lr, b1, b2, eps, weight_decay):
    print("tracing the AdamW step for", jax.tree_util.tree_structure(params))
    t = state.count + 1
    bc1 = 1 - b1 ** t
    bc2 = 1 - b2 ** t
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.m, grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g ** 2, state.v, grads)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - lr * (m / bc1 / (jnp.sqrt(v / bc2) + eps) + weight_decay * p),
        params, m, v)
    return params, State(m, v, t)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    new_params, state = _step(params, grads, State(m, v, count), lr=lr, b1=b1, b2=b2,
                              eps=eps, weight_decay=weight_decay)
    return {"params": new_params, "m": state.m, "v": state.v, "count": state.count}


if __name__ == "__main__":
    p = {"w": jnp.ones((2,))}
    z = {"w": jnp.zeros((2,))}
    print(adamw_step(p, p, z, z, jnp.int32(0), 1e-3, 0.9, 0.999, 1e-8, 0.01))
