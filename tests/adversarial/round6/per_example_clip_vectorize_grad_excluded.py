"""per_example_clip: one example's gradient (``jax.grad`` with ``argnums=(0, 1)``) batched with
``jnp.vectorize``, w and b passed through ``excluded``, the signature "(d),()->(d),()"; the norm
by ``jnp.linalg.vector_norm`` of the joined gradient, guarded where it is 0.

Problem: per_example_clip
Expected: AC
"""

import jax
import jax.numpy as jnp


def _loss(w, b, x, t):
    return 0.5 * (jnp.dot(x, w) + b - t) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    per_example = jnp.vectorize(jax.grad(_loss, argnums=(0, 1)), excluded={0, 1},
                                signature="(d),()->(d),()")
    gw, gb = per_example(w, b, X, y)
    joined = jnp.concatenate([gw, gb[:, None]], axis=1)
    norm = jnp.linalg.vector_norm(joined, axis=1)
    factor = jnp.where(norm > clip_norm, clip_norm / jnp.where(norm > 0, norm, 1.0), 1.0)
    mean = jnp.mean(joined * factor[:, None], axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
