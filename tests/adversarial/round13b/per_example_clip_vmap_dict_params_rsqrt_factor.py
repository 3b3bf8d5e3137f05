"""per_example_clip: the parameters as a dict, ``jax.vmap(jax.grad(loss), in_axes=(None, 0))``
over a dict of the batch (``{"x": X, "y": y}``), the factor ``min(1, C * rsqrt(max(s, C^2)))``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss(params, example):
    pred = jnp.dot(example["x"], params["w"]) + params["b"]
    return 0.5 * (pred - example["y"]) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    grads = jax.vmap(jax.grad(loss), in_axes=(None, 0))({"w": w, "b": b}, {"x": X, "y": y})
    s = jnp.sum(grads["w"] ** 2, axis=1) + grads["b"] ** 2
    factor = jnp.minimum(1.0, clip_norm * jax.lax.rsqrt(jnp.maximum(s, clip_norm ** 2)))
    return {"grad_w": jnp.mean(grads["w"] * factor[:, None], axis=0),
            "grad_b": jnp.mean(grads["b"] * factor)}
