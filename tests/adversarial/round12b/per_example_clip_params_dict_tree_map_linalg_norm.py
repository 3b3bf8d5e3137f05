"""per_example_clip: the parameters as a dict, per-example gradients by ``jax.vmap`` of
``jax.grad`` of a loss over the dict, the norm by ``jnp.linalg.norm`` of the concatenated
``ravel``-ed parts (``jnp.concatenate([gw, gb[:, None]], axis=1)``), the clipped gradients
averaged by ``jax.tree_util.tree_map``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    pred = x @ params["w"] + params["b"]
    return 0.5 * jnp.square(pred - y)


def clipped_mean_grad(w, b, X, y, clip_norm):
    params = {"w": w, "b": b}
    grads = jax.vmap(jax.grad(_loss), in_axes=(None, 0, 0))(params, X, y)
    flat = jnp.concatenate([grads["w"], grads["b"][:, None]], axis=1)
    norms = jnp.linalg.norm(flat, axis=1)
    scale = jnp.minimum(1.0, clip_norm / jnp.where(norms > 0, norms, 1.0))
    clipped = jax.tree_util.tree_map(lambda g: g * scale.reshape((-1,) + (1,) * (g.ndim - 1)), grads)
    mean = jax.tree_util.tree_map(lambda g: g.mean(axis=0), clipped)
    return {"grad_w": mean["w"], "grad_b": mean["b"]}
