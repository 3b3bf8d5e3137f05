"""per_example_clip, honest: each example's gradient clipped inside ``jax.vmap(...,
axis_name="batch")`` and averaged there with ``lax.pmean`` (which divides by the axis size, a
symbol in the program the rules read).

Expected: AC
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(w, b, x, t):
        return 0.5 * (jnp.dot(x, w) + b - t) ** 2

    def one(x, t):
        gw, gb = jax.grad(loss, argnums=(0, 1))(w, b, x, t)
        scale = 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.sum(gw * gw) + gb * gb) / clip_norm)
        return jax.lax.pmean(gw * scale, "batch"), jax.lax.pmean(gb * scale, "batch")

    gw, gb = jax.vmap(one, axis_name="batch")(X, y)
    return {"grad_w": gw[0], "grad_b": gb[0]}
