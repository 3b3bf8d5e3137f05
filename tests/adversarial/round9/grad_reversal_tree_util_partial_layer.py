"""grad_reversal: the layer as a ``jax.tree_util.Partial`` of a module-level custom_vjp function
with lam as a nondiff argument (``nondiff_argnums=(0,)``), the backward rule written as
``jnp.negative(g) * lam``, the pullback by ``jax.vjp``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def reverse(lam, x):
    return x


def _fwd(lam, x):
    return x, None


def _bwd(lam, _, g):
    return (jnp.negative(g) * lam,)


reverse.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    layer = jax.tree_util.Partial(reverse, lam)
    y, pullback = jax.vjp(layer, x)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}
