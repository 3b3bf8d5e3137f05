"""per_example_clip: a Flax-style module whose hyperparameters sit in ``self.config`` (a dict
holding the clip norm), its ``__call__`` taking the per-example gradients with
``jax.vmap(jax.value_and_grad(...))`` and clipping them with ``jnp.where``.

Problem: per_example_clip
Expected: AC
Open: RJ forbidden_construct: ``config`` is refused as an attribute name on any object (it is
  ``jax.config``'s); the gate cannot tell the submission's own instance from a module passed
  as ``self`` through the class (``Clip.__call__(jax, ...)``), so ``self.config`` stays refused
  where the class binds it; ``self.cfg`` passes
Cases: all
"""
import jax
import jax.numpy as jnp


class PerExampleClip:
    def __init__(self, clip_norm):
        self.config = {"clip_norm": clip_norm}

    def loss(self, params, x, t):
        w, b = params
        return 0.5 * (x @ w + b - t) ** 2

    def __call__(self, w, b, X, y):
        _, (gw, gb) = jax.vmap(jax.value_and_grad(self.loss), in_axes=(None, 0, 0))((w, b), X, y)
        norm = jnp.sqrt(jnp.sum(gw * gw, axis=1) + gb * gb)
        c = self.config["clip_norm"]
        factor = jnp.where(norm > c, c / jnp.where(norm > c, norm, 1.0), 1.0)
        return {"grad_w": jnp.mean(gw * factor[:, None], axis=0), "grad_b": jnp.mean(gb * factor)}


def clipped_mean_grad(w, b, X, y, clip_norm):
    return PerExampleClip(clip_norm)(w, b, X, y)
