"""clip_by_global_norm: a norm function of its own with a ``jax.custom_jvp`` whose derivative
is zero at the origin (x / |x| elsewhere), the factor ``1 / jnp.maximum(1, g / max_norm)``;
the leaves walked by a recursive function over the nested dicts.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def safe_norm(v):
    return jnp.sqrt(jnp.sum(v * v))


@safe_norm.defjvp
def _safe_norm_jvp(primals, tangents):
    (v,), (dv,) = primals, tangents
    n = safe_norm(v)
    denom = jnp.where(n > 0, n, 1.0)
    return n, jnp.where(n > 0, jnp.vdot(v, dv) / denom, 0.0)


def _leaves(tree):
    if isinstance(tree, dict):
        out = []
        for key in sorted(tree):
            out.extend(_leaves(tree[key]))
        return out
    return [tree.reshape(-1)]


def _scale(tree, s):
    if isinstance(tree, dict):
        return {k: _scale(val, s) for k, val in tree.items()}
    return tree * s


def clip_by_global_norm(grads, max_norm):
    g = safe_norm(jnp.concatenate(_leaves(grads)))
    return _scale(grads, 1.0 / jnp.maximum(1.0, g / max_norm))
