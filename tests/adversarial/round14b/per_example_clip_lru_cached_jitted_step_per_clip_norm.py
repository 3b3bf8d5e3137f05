"""per_example_clip: a ``functools.lru_cache`` factory keyed on the clip norm that returns a
``jax.jit``-ed step, the per-example gradients by ``jax.vmap`` of ``jax.value_and_grad`` over a
``(w, b)`` tuple, the norm by ``jnp.hypot`` of the weights' norm and the bias' part; type
annotations and a ``__main__`` block.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _loss(params: tuple[jax.Array, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    w, b = params
    return 0.5 * jnp.square(jnp.dot(x, w) + b - y)


@functools.lru_cache(maxsize=8)
def make_step(clip_norm: float):
    @jax.jit
    def step(w, b, X, y):
        _, (gw, gb) = jax.vmap(jax.value_and_grad(_loss), in_axes=((None, None), 0, 0))((w, b), X, y)
        norm = jnp.hypot(jnp.linalg.norm(gw, axis=-1), gb)
        keep = jnp.where(norm > clip_norm, clip_norm / jnp.where(norm > 0, norm, 1.0), 1.0)
        return {"grad_w": (gw * keep[:, None]).mean(0), "grad_b": (gb * keep).mean()}
    return step


def clipped_mean_grad(w, b, X, y, clip_norm):
    return make_step(float(clip_norm))(w, b, X, y)


if __name__ == "__main__":
    X = jnp.arange(6.0).reshape(3, 2)
    print(clipped_mean_grad(jnp.ones(2), jnp.zeros(()), X, jnp.ones(3), 1.0))
