"""grad_reversal: the ``custom_vjp`` layer wrapped in ``jax.checkpoint`` and the whole function
under ``jax.jit`` with ``static_argnames=("lam",)``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def reverse(x, lam):
    return x


def reverse_fwd(x, lam):
    return x, None


def reverse_bwd(lam, res, g):
    return (g * -lam,)


reverse.defvjp(reverse_fwd, reverse_bwd)


@partial(jax.jit, static_argnames=("lam",))
def grad_reverse(x, lam, dy):
    layer = jax.checkpoint(lambda x: reverse(x, lam))
    y, pullback = jax.vjp(layer, x)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}
