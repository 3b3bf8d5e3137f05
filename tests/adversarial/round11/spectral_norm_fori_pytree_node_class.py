"""spectral_norm: ``lax.fori_loop`` carrying a class registered with
``register_pytree_node_class`` (its own flatten and unflatten).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Vectors:
    def __init__(self, u, v):
        self.u = u
        self.v = v

    def tree_flatten(self):
        return (self.u, self.v), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, c):
        v = Wc.T @ c.u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return Vectors(u / jnp.linalg.norm(u), v)

    c = jax.lax.fori_loop(0, K, step, Vectors(u0, jnp.zeros(W.shape[1], W.dtype)))
    return c.u @ W @ c.v
