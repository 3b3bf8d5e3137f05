"""grad_reversal: a scalar layer with ``custom_vjp`` spread over x with ``jnp.vectorize``;
``dx`` as ``jax.grad`` of the weighted sum with dy.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def one(e):
        return e

    one.defvjp(lambda e: (e, None), lambda _, g: (-lam * g,))
    layer = jnp.vectorize(one)
    y = layer(x)
    dx = jax.grad(lambda v: jnp.sum(layer(v) * dy))(x)
    return {"y": y, "dx": dx}
