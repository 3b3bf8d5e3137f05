"""clip_by_global_norm: the tree flattened with ``jax.flatten_util.ravel_pytree``, its norm a
``jax.custom_jvp`` whose tangent rule is ``x . t / n`` where n > 0 and 0 at n = 0, the factor
``min(1, max_norm / n)`` with n floored at max_norm, and the vector unraveled back.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


@jax.custom_jvp
def safe_norm(x):
    return jnp.sqrt(jnp.sum(x * x))


@safe_norm.defjvp
def _safe_norm_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    n = safe_norm(x)
    return n, jnp.where(n > 0, jnp.vdot(x, t) / jnp.where(n > 0, n, 1.0), 0.0)


def clip_by_global_norm(grads, max_norm):
    flat, unravel = ravel_pytree(grads)
    n = safe_norm(flat)
    scale = max_norm / jnp.maximum(n, max_norm)
    return unravel(flat * scale)
