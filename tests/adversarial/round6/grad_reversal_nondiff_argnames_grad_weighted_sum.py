"""grad_reversal: the layer with ``nondiff_argnames=("lam",)`` called with lam as a keyword,
dx from ``jax.grad`` of the weighted sum ``jnp.vdot(r(x), dy)``, and y as the layer's own
output.

Problem: grad_reversal
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.custom_vjp, nondiff_argnames=("lam",))
def reverse(x, lam):
    return x


def _fwd(x, lam):
    return x, None


def _bwd(lam, _, g):
    return (-lam * g,)


reverse.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    y = reverse(x, lam=lam)
    dx = jax.grad(lambda z: jnp.vdot(reverse(z, lam=lam), dy))(x)
    return {"y": y, "dx": dx}
