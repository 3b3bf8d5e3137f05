"""per_example_clip: ``jax.vmap`` of ``jax.value_and_grad(..., argnums=(0, 1), has_aux=True)``
(the prediction as auxiliary output, printed shape only), the two parts concatenated into one
(n, d + 1) matrix whose rows' ``jnp.linalg.norm`` gives the clip.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def example_loss(w, b, x, y):
    pred = x @ w + b
    return 0.5 * jnp.square(pred - y), pred


def clipped_mean_grad(w, b, X, y, clip_norm):
    per_example = jax.vmap(jax.value_and_grad(example_loss, argnums=(0, 1), has_aux=True),
                           in_axes=(None, None, 0, 0))
    (losses, preds), (gw, gb) = per_example(w, b, X, y)
    print("per-example predictions", preds.shape)
    g = jnp.concatenate([gw, gb[:, None]], axis=1)
    norms = jnp.linalg.norm(g, axis=1, keepdims=True)
    g = g / jnp.maximum(1.0, norms / clip_norm)
    mean = jnp.mean(g, axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
