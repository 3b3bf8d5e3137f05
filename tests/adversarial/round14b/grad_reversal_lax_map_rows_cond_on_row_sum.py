"""grad_reversal: ``lax.map`` over the rows of a ``lax.cond`` on the row's sum, both branches
applying the layer (the static methods of a ``Reversal`` class made a ``custom_vjp`` with λ a
nondiff argument), one to the row flattened and reshaped back.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


class Reversal:
    @staticmethod
    def forward(lam, v):
        return v

    @staticmethod
    def fwd(lam, v):
        return v, None

    @staticmethod
    def bwd(lam, _, g):
        return (-lam * g,)


layer = partial(jax.custom_vjp, nondiff_argnums=(0,))(Reversal.forward)
layer.defvjp(Reversal.fwd, Reversal.bwd)


def grad_reverse(x, lam, dy):
    def row(v):
        return lax.cond(jnp.sum(v) > 0, partial(layer, lam),
                        lambda v: layer(lam, v.reshape(-1)).reshape(v.shape), v)

    y, pullback = jax.vjp(lambda x: lax.map(row, jnp.atleast_2d(x)).reshape(x.shape), x)
    return {"y": y, "dx": pullback(dy)[0]}
