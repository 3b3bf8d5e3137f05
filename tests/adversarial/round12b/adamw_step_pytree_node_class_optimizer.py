"""adamw_step: an optimizer state class registered with
``jax.tree_util.register_pytree_node_class`` (``tree_flatten`` and a ``tree_unflatten``
classmethod), updated by ``jax.tree_util.tree_map`` over the parameter tree; a module-level
``global`` counter of traces printed each time.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

TRACES = 0


@jax.tree_util.register_pytree_node_class
class Moments:
    def __init__(self, m, v):
        self.m = m
        self.v = v

    def tree_flatten(self):
        return (self.m, self.v), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def step(self, g, b1, b2):
        return Moments(b1 * self.m + (1 - b1) * g, b2 * self.v + (1 - b2) * g ** 2)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    global TRACES
    TRACES += 1
    print(f"tracing adamw_step ({TRACES})")
    t = count + 1
    moments = jax.tree_util.tree_map(lambda a, b: Moments(a, b), m, v)
    moments = jax.tree_util.tree_map(lambda mo, g: mo.step(g, b1, b2), moments, grads,
                                     is_leaf=lambda n: isinstance(n, Moments))
    tf = t.astype(jnp.float32)
    c1, c2 = 1 - b1 ** tf, 1 - b2 ** tf

    def upd(p, mo):
        return p - lr * ((mo.m / c1) / (jnp.sqrt(mo.v / c2) + eps) + weight_decay * p)

    is_mo = lambda n: isinstance(n, Moments)
    new_params = jax.tree_util.tree_map(upd, params, moments, is_leaf=is_mo)
    new_m = jax.tree_util.tree_map(lambda mo: mo.m, moments, is_leaf=is_mo)
    new_v = jax.tree_util.tree_map(lambda mo: mo.v, moments, is_leaf=is_mo)
    return {"params": new_params, "m": new_m, "v": new_v, "count": t}
