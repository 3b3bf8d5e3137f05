"""per_example_clip: honest code with a model class (``__call__`` for the loss of one example),
``vmap`` of ``grad`` over the batch, and the clip factor ``jnp.minimum(1, C / norm)`` (infinite
ratio at a zero gradient, minimum 1).

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as np


class LinearSquaredError:
    def __call__(self, params, xi, yi):
        w, b = params
        return 0.5 * (xi @ w + b - yi) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    loss = LinearSquaredError()
    gw, gb = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))((w, b), X, y)
    norm = np.sqrt(np.sum(gw * gw, axis=1) + gb * gb)
    factor = np.minimum(1.0, clip_norm / norm)
    return {"grad_w": np.mean(gw * factor[:, None], axis=0), "grad_b": np.mean(gb * factor)}
