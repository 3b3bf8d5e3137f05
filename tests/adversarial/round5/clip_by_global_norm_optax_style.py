"""clip_by_global_norm: optax's own formulation: ``optax.global_norm`` written out with
``jax.tree_util.tree_reduce``, then ``jnp.where(norm < max_norm, leaf, leaf / norm * max_norm)``
with the division guarded. The value is right everywhere, but ``jnp.sqrt`` of 0 has an
infinite derivative: at an all-zero tree the gradient is NaN, which the problem's examples
check (its reference takes the square root of 1 there instead).

Problem: clip_by_global_norm
Expected: WA wrong_vjp
"""

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = jax.tree_util.tree_reduce(lambda acc, g: acc + jnp.sum(jnp.square(g)), grads, jnp.float32(0))
    norm = jnp.sqrt(sq)
    safe = jnp.where(norm < max_norm, 1.0, norm)
    return jax.tree_util.tree_map(
        lambda g: jnp.where(norm < max_norm, g, g / safe * max_norm), grads)
