"""grad_reversal: the layer is written for one feature vector and ``jax.vmap``-ed over the
rows when x is a matrix (a Python branch on the static ``x.ndim``); lam is a
``nondiff_argnums`` argument bound with ``functools.partial``; dx from ``jax.grad`` of
``jnp.vdot``.

Problem: grad_reversal
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
def reverse_vector(lam, v):
    return v


def _fwd(lam, v):
    return v, None


def _bwd(lam, _, g):
    return (-lam * g,)


reverse_vector.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    layer = functools.partial(reverse_vector, lam)
    if x.ndim == 2:
        layer = jax.vmap(layer)
    y = layer(x)
    dx = jax.grad(lambda z: jnp.vdot(layer(z), dy))(x)
    return {"y": y, "dx": dx}
