"""grad_reversal: the layer ``jax.vmap``-ed over the columns of ``atleast_2d(x)``
(``in_axes=1, out_axes=1``) inside a function that also returns an auxiliary count of entries;
``jax.vjp(..., has_aux=True)``.

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

    def fwd(col):
        return col, None

    def bwd(_, g):
        return (-lam * g,)

    r.defvjp(fwd, bwd)

    def layer(v):
        out = jax.vmap(r, in_axes=1, out_axes=1)(jnp.atleast_2d(v)).reshape(v.shape)
        return out, v.size

    y, pb, n = jax.vjp(layer, x, has_aux=True)
    assert n == x.size
    return {"y": y, "dx": pb(dy)[0]}
