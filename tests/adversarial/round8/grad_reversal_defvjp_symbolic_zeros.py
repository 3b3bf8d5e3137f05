"""grad_reversal: the rules attached with ``symbolic_zeros=True``: the forward rule receives
``CustomVJPPrimal`` wrappers (their ``.value`` read) and the backward rule maps a symbolic zero
cotangent to None; dx from ``jax.grad`` of the weighted sum.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.custom_derivatives import SymbolicZero


def make_layer(lam):
    @jax.custom_vjp
    def layer(x):
        return x

    def fwd(x):
        return x.value, None

    def bwd(_, g):
        if isinstance(g, SymbolicZero):
            return (None,)
        return (-lam * g,)

    layer.defvjp(fwd, bwd, symbolic_zeros=True)
    return layer


def grad_reverse(x, lam, dy):
    layer = make_layer(lam)
    dx = jax.grad(lambda a: jnp.sum(layer(a) * dy))(x)
    return {"y": layer(x), "dx": dx}
