"""per_example_clip: Python state across traces. clip_norm differs from case to case, so each
case's program is traced on its own: the first is honest, every later one forgets to clip.
Every case runs its own program.

Problem: per_example_clip
Expected: WA
"""

import jax
import jax.numpy as jnp

_calls = []


def clipped_mean_grad(w, b, X, y, clip_norm):
    _calls.append(clip_norm)

    def one(x, t):
        r = jnp.dot(x, w) + b - t
        g = jnp.concatenate([r * x, r[None]])
        if len(_calls) == 1:
            g = g / jnp.maximum(1.0, jnp.linalg.norm(g) / clip_norm)
        return g

    mean = jnp.mean(jax.vmap(one)(X, y), axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
