"""grad_reversal: a small layer class whose ``__call__`` is a ``jax.custom_vjp`` built in
``__init__`` around the instance's lambda (a closure), and ``jax.value_and_grad`` with
``has_aux=True`` returning y as the aux value.

Problem: grad_reversal
Expected: AC
"""

import jax
import jax.numpy as jnp


class GradientReversal:
    def __init__(self, lam):
        self.lam = lam

        @jax.custom_vjp
        def layer(x):
            return x

        def fwd(x):
            return x, ()

        def bwd(res, g):
            return (jax.tree_util.tree_map(lambda t: -self.lam * t, g),)

        layer.defvjp(fwd, bwd)
        self._layer = layer

    def __call__(self, x):
        return self._layer(x)


def grad_reverse(x, lam, dy):
    layer = GradientReversal(lam)

    def weighted(z):
        out = layer(z)
        return jnp.sum(out * dy), out

    (_, y), dx = jax.value_and_grad(weighted, has_aux=True)(x)
    return {"y": y, "dx": dx}
