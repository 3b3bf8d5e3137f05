"""per_example_clip: the batch as a dict ``{"x": X, "y": y}`` and ``jax.vmap(jax.grad(loss),
in_axes=(None, {"x": 0, "y": 0}))`` over it, the parameters a dict too; the norms from the two
leaves of the per-example gradient tree.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss(params, ex):
    pred = jnp.dot(ex["x"], params["w"]) + params["b"]
    return 0.5 * jnp.square(pred - ex["y"])


def clipped_mean_grad(w, b, X, y, clip_norm):
    per_ex = jax.vmap(jax.grad(loss), in_axes=(None, {"x": 0, "y": 0}))(
        {"w": w, "b": b}, {"x": X, "y": y})
    norm = jnp.sqrt(jnp.sum(per_ex["w"] ** 2, axis=1) + per_ex["b"] ** 2)
    scale = 1.0 / jnp.maximum(1.0, norm / clip_norm)
    return {"grad_w": jnp.mean(per_ex["w"] * scale[:, None], axis=0),
            "grad_b": jnp.mean(per_ex["b"] * scale)}
