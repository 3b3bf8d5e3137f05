"""grad_reversal: the layer built per λ by a ``functools.lru_cache`` factory (a ``custom_vjp``
closing over λ), and ``dx`` as ``jax.grad`` of ``jnp.sum(r(x) * dy)``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def reversal_layer(lam: float):
    @jax.custom_vjp
    def layer(x):
        return x

    def fwd(x):
        return x, ()

    def bwd(_, g):
        return (-lam * g,)

    layer.defvjp(fwd, bwd)
    return layer


def grad_reverse(x, lam, dy):
    layer = reversal_layer(lam)
    y = layer(x)
    dx = jax.grad(lambda x: jnp.sum(layer(x) * dy))(x)
    return {"y": y, "dx": dx}
