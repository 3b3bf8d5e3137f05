"""grad_reversal: the ``custom_vjp`` layer called inside a function wrapped in ``jax.checkpoint``
(as it sits inside a rematerialised block), ``dx`` from ``jax.grad`` of the ``dy``-weighted
sum, ``y`` computed by calling the layer directly.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(x):
        return x

    rev.defvjp(lambda x: (x, None), lambda _, g: (-lam * g,))

    block = jax.checkpoint(lambda x: rev(x))
    dx = jax.grad(lambda x: jnp.sum(block(x) * dy))(x)
    return {"y": block(x), "dx": dx}
