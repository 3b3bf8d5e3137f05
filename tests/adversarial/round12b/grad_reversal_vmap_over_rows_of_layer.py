"""grad_reversal: the layer applied to each row by ``jax.vmap`` (x made 2-D with
``jnp.atleast_2d`` and put back to its shape), the VJP of the vmapped function.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    def fwd(v):
        return v, None

    def bwd(_, g):
        return (-lam * g,)

    r.defvjp(fwd, bwd)

    def layer(x):
        rows = jnp.atleast_2d(x)
        return jax.vmap(r)(rows).reshape(x.shape)

    y, back = jax.vjp(layer, x)
    (dx,) = back(dy)
    return {"y": y, "dx": dx}
