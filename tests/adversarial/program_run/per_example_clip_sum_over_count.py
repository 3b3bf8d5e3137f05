"""per_example_clip, honest: per-example gradients by ``jax.vmap(jax.grad(...))``, the mean as a
sum divided by ``X.shape[0]`` (n used as a number in the program, not in Python).

Problem: per_example_clip
Expected: AC
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(params, x, t):
        w, b = params
        return 0.5 * (x @ w + b - t) ** 2

    gw, gb = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))((w, b), X, y)
    norms = jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2)
    scale = jnp.minimum(1.0, clip_norm / norms)
    n = X.shape[0]
    return {"grad_w": jnp.sum(gw * scale[:, None], axis=0) / n, "grad_b": jnp.sum(gb * scale) / n}
