"""A class holding W whose instances are Hessian-vector operators at a point: the gradient is
a method, and calling the operator on v takes its JVP.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


class TanhSum:
    def __init__(self, W):
        self._W = W

    def value(self, z):
        return jnp.sum(jnp.tanh(self._W @ z))

    def gradient(self, z):
        return jax.grad(self.value)(z)

    def hessian_vector(self, z, direction):
        return jax.jvp(self.gradient, (z,), (direction,))[1]


def hvp(W, x, v):
    return TanhSum(W).hessian_vector(x, v)
