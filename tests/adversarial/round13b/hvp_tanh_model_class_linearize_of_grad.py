"""hvp_tanh: a small model class holding ``W`` with ``__call__`` for f; ``jax.linearize`` of its
gradient at ``x`` gives the linear map z -> H z, applied to v.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class TanhSum:
    def __init__(self, W: jax.Array):
        self.W = W

    def __call__(self, x: jax.Array) -> jax.Array:
        return jnp.sum(jnp.tanh(self.W @ x))


def hvp(W, x, v):
    model = TanhSum(W)
    _, hessian_times = jax.linearize(jax.grad(model), x)
    return hessian_times(v)
