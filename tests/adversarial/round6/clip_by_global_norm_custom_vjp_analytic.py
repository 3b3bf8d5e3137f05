"""clip_by_global_norm: a ``jax.custom_vjp`` with the backward rule written by hand:
scale * c - [g > max_norm] * max_norm / g^3 * <c, x> x, with ``max_norm`` a
``nondiff_argnums`` argument and the trees flattened with ``ravel_pytree``.

Problem: clip_by_global_norm
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _clip_flat(x, max_norm):
    g = jnp.sqrt(jnp.sum(x * x))
    return x * jnp.where(g > max_norm, max_norm / jnp.maximum(g, max_norm), 1.0)


def _fwd(x, max_norm):
    return _clip_flat(x, max_norm), x


def _bwd(max_norm, x, c):
    g = jnp.sqrt(jnp.sum(x * x))
    clipped = g > max_norm
    safe_g = jnp.where(clipped, g, 1.0)
    scale = jnp.where(clipped, max_norm / safe_g, 1.0)
    extra = jnp.where(clipped, max_norm / safe_g ** 3 * jnp.dot(c, x), 0.0)
    return (scale * c - extra * x,)


_clip_flat.defvjp(_fwd, _bwd)


def clip_by_global_norm(grads, max_norm):
    flat, unravel = ravel_pytree(grads)
    return unravel(_clip_flat(flat, max_norm))
