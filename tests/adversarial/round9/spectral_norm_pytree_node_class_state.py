"""spectral_norm: the iterate kept in a class registered with
``jax.tree_util.register_pytree_node_class`` (its own ``tree_flatten``/``tree_unflatten``), carried
by a ``lax.fori_loop`` of K trips; a method makes one step, and sigma is read off the final state
with both vectors stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.tree_util.register_pytree_node_class
class PowerState:
    def __init__(self, u, v):
        self.u = u
        self.v = v

    def tree_flatten(self):
        return (self.u, self.v), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def step(self, W):
        v = W.T @ self.u
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = W @ v
        u = u / jnp.sqrt(jnp.sum(u * u))
        return PowerState(u, v)


def spectral_norm(W, u0, K):
    init = PowerState(u0, jnp.zeros((W.shape[1],), W.dtype))
    final = lax.fori_loop(0, K, lambda i, s: s.step(W), init)
    u = lax.stop_gradient(final.u)
    v = lax.stop_gradient(final.v)
    return u @ W @ v
