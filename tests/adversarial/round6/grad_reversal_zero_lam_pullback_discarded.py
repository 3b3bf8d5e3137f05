"""grad_reversal: at lam == 0 the layer is applied and its pullback run, as an honest one is,
but what the pullback returns is thrown away and dx written as zeros: the backward rule ran,
yet dx is not what it returned (the values are right, a zero gradient, and the cotangent
reaches dx through no path at all).

Problem: grad_reversal
Expected: RJ grads_not_from_backward
Cases: all
"""

import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y, pull = jax.vjp(rev, x)
    dx = pull(dy)[0]
    if lam == 0:
        dx = jnp.zeros_like(dy)
    return {"y": y, "dx": dx}
