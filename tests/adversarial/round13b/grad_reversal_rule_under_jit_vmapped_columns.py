"""grad_reversal: the layer applied to each column of a 2-D input by ``jax.vmap`` with
``in_axes=1, out_axes=1``, the whole thing under ``jax.jit``; a 1-D input goes in as one column.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(col):
        return col

    r.defvjp(lambda col: (col, None), lambda _, g: (-lam * g,))

    @jax.jit
    def run(x, dy):
        x2 = x.reshape(x.shape[0], -1)
        layer = jax.vmap(r, in_axes=1, out_axes=1)
        y, pullback = jax.vjp(layer, x2)
        (dx,) = pullback(dy.reshape(x2.shape))
        return y.reshape(x.shape), dx.reshape(x.shape)

    y, dx = run(x, dy)
    return {"y": y, "dx": dx}
