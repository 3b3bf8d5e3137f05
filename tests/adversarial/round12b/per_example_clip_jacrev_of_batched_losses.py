"""per_example_clip: ``jax.jacrev`` of the vector of n losses with respect to (w, b) (the
statement's n x n identity over the losses), giving per-example rows directly; the norm over
both parts; ``jax.numpy.where`` guards the division.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def losses(w, b):
        return 0.5 * (X @ w + b - y) ** 2

    jw, jb = jax.jacrev(losses, argnums=(0, 1))(w, b)
    norm = jnp.sqrt((jw * jw).sum(axis=1) + jb * jb)
    s = jnp.where(norm > clip_norm, clip_norm / jnp.where(norm > clip_norm, norm, 1.0), 1.0)
    return {"grad_w": (jw * s[:, None]).mean(0), "grad_b": (jb * s).mean()}
