"""per_example_clip: closed form with the bias folded in: X augmented by a column of ones
(``jnp.concatenate``), per-example gradients ``r[:, None] * Xa``, norms by
``jnp.linalg.norm(axis=1)``, clip factors by ``jnp.minimum(1, C / norm)`` guarded at norm 0,
and the mean split back with slicing.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    Xa = jnp.concatenate([X, jnp.ones((X.shape[0], 1), X.dtype)], axis=1)
    wa = jnp.concatenate([w, b[None]])
    r = Xa @ wa - y
    G = r[:, None] * Xa
    norm = jnp.linalg.norm(G, axis=1)
    factor = jnp.where(norm > clip_norm, clip_norm / jnp.where(norm > 0, norm, 1.0), 1.0)
    mean = jnp.mean(G * factor[:, None], axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
