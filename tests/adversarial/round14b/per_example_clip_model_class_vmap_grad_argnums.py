"""per_example_clip: a ``LinearRegression`` class with ``predict`` and ``loss`` methods; the
per-example gradients ``jax.vmap(jax.grad(model.loss, argnums=(0, 1)), in_axes=(None, None, 0,
0))``, the joint norm from both parts, the factor ``1 / max(1, norm / C)``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class LinearRegression:
    def predict(self, w, b, x):
        return jnp.dot(x, w) + b

    def loss(self, w, b, x, y):
        return 0.5 * (self.predict(w, b, x) - y) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    model = LinearRegression()
    gw, gb = jax.vmap(jax.grad(model.loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    norm = jnp.sqrt(jnp.sum(gw * gw, axis=1) + gb * gb)
    factor = 1.0 / jnp.maximum(1.0, norm / clip_norm)
    return {"grad_w": jnp.mean(gw * factor[:, None], axis=0), "grad_b": jnp.mean(gb * factor)}
