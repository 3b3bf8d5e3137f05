"""per_example_clip: a student's ``jax.lax.map`` over the examples (each one's gradient clipped
in turn): correct values, but the statement refuses loop primitives over the examples.

Problem: per_example_clip
Expected: RJ forbidden_primitive
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def one(example):
        x, t = example
        gw, gb = jax.grad(lambda w, b: 0.5 * (x @ w + b - t) ** 2, argnums=(0, 1))(w, b)
        norm = jnp.sqrt(jnp.sum(gw ** 2) + gb ** 2)
        f = 1.0 / jnp.maximum(1.0, norm / clip_norm)
        return gw * f, gb * f

    gw, gb = jax.lax.map(one, (X, y))
    return {"grad_w": gw.mean(0), "grad_b": gb.mean()}
