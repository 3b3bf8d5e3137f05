"""clip_by_global_norm: a plausible wrong answer on the derivative: the squared norm as a sum
of ``jnp.vdot(l, l)`` over the leaves and a hand-rolled ``safe_norm`` (the square root taken of
``where(s > 0, s, 1)``, selected back to 0), then ``scale = jnp.minimum(1.0, max_norm / g)`` with
a zero norm replaced by a divisor of one. At an all-zero tree the factor is then
min(1, max_norm), not 1: the values (zeros) are right, but where max_norm < 1 the VJP is the
cotangent scaled down.

Problem: clip_by_global_norm
Expected: WA wrong_vjp
Cases: all
"""
import jax
import jax.numpy as jnp


def safe_norm(sq):
    positive = sq > 0
    return jnp.where(positive, jnp.sqrt(jnp.where(positive, sq, 1.0)), 0.0)


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.vdot(l, l) for l in jax.tree_util.tree_leaves(grads))
    g = safe_norm(sq)
    scale = jnp.minimum(1.0, max_norm / jnp.where(g > 0, g, 1.0))
    return jax.tree_util.tree_map(lambda l: l * scale, grads)
