"""spectral_norm, honest: the iteration's state a small class registered with
``jax.tree_util.register_pytree_node_class`` (``tree_flatten``/``tree_unflatten``), carried by a
``fori_loop`` and read back by attribute; a method makes one step.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


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
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return PowerState(u / jnp.linalg.norm(u), v)


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)
    start = PowerState(u0, jnp.zeros((W.shape[1],), W.dtype))
    state = jax.lax.fori_loop(0, K, lambda i, s: s.step(Ws), start)
    return state.u @ W @ state.v
