"""Module-level reversal declared with functools.partial(jax.custom_vjp, nondiff_argnums=(1,)):
lam is a non-differentiable argument and arrives first in the backward rule.

Expected verdict: accepted.
"""
import functools

import jax


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def reverse_gradient(x, lam):
    return x


def _reverse_fwd(x, lam):
    return x, None


def _reverse_bwd(lam, _residual, g):
    return (-lam * g,)


reverse_gradient.defvjp(_reverse_fwd, _reverse_bwd)


def grad_reverse(x, lam, dy):
    y, vjp_fn = jax.vjp(lambda v: reverse_gradient(v, lam), x)
    (dx,) = vjp_fn(dy)
    return {"y": y, "dx": dx}
