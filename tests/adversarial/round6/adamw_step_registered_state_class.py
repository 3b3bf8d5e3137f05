"""adamw_step: the optimizer state as a class registered with
``jax.tree_util.register_pytree_node_class`` (count and both moments its children), every leaf
made at least 1-d with ``jnp.atleast_1d`` for the arithmetic and reshaped back to its own shape
(0-d leaves included), the hyperparameters bound with ``functools.partial``.

Problem: adamw_step
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class State:
    def __init__(self, count, mu, nu):
        self.count, self.mu, self.nu = count, mu, nu

    def tree_flatten(self):
        return (self.count, self.mu, self.nu), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def _leaf(p, g, mu, nu, bc1, bc2, *, lr, b1, b2, eps, wd):
    shape = jnp.shape(p)
    p1, g1, mu1, nu1 = (jnp.atleast_1d(a) for a in (p, g, mu, nu))
    mu1 = b1 * mu1 + (1 - b1) * g1
    nu1 = b2 * nu1 + (1 - b2) * g1 * g1
    new = p1 - lr * (mu1 / bc1 / (jnp.sqrt(nu1 / bc2) + eps) + wd * p1)
    return tuple(jnp.reshape(a, shape) for a in (new, mu1, nu1))


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    state = State(count, m, v)
    t = state.count + 1
    bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
    step = functools.partial(_leaf, lr=lr, b1=b1, b2=b2, eps=eps, wd=weight_decay)
    out = jax.tree_util.tree_map(lambda p, g, a, b: step(p, g, a, b, bc1, bc2),
                                 params, grads, state.mu, state.nu)
    is_triple = lambda x: isinstance(x, tuple)
    part = lambda i: jax.tree_util.tree_map(lambda o: o[i], out, is_leaf=is_triple)
    new_state = State(t, part(1), part(2))
    return {"params": part(0), "m": new_state.mu, "v": new_state.nu, "count": new_state.count}
