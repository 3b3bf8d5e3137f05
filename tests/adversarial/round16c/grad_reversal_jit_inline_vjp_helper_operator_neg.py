"""grad_reversal: the pullback taken inside a ``jax.jit(..., inline=True)`` helper (``lam`` a
static argument), the backward rule written with ``operator.neg`` and ``operator.mul``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import functools
import operator

import jax


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def reverse(x, lam):
    return x


def _fwd(x, lam):
    return x, None


def _bwd(lam, _, g):
    return (operator.neg(operator.mul(lam, g)),)


reverse.defvjp(_fwd, _bwd)


@functools.partial(jax.jit, static_argnums=1, inline=True)
def _pull(x, lam, dy):
    y, vjp = jax.vjp(lambda t: reverse(t, lam), x)
    return y, vjp(dy)[0]


def grad_reverse(x, lam, dy):
    y, dx = _pull(x, lam, dy)
    return {"y": y, "dx": dx}
