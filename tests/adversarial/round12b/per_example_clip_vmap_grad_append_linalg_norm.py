"""per_example_clip: ``jax.vmap`` of a per-example function that takes ``jax.grad`` with
``argnums=(0, 1)``, joins the parts with ``jnp.append`` and clips by ``jnp.linalg.norm``
(guarded at zero), returning the two clipped parts.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def one(x_i, y_i):
        gw, gb = jax.grad(lambda w_, b_: 0.5 * (x_i @ w_ + b_ - y_i) ** 2, argnums=(0, 1))(w, b)
        norm = jnp.linalg.norm(jnp.append(gw, gb))
        f = jnp.where(norm > clip_norm, clip_norm / jnp.where(norm > 0, norm, 1.0), 1.0)
        return gw * f, gb * f

    gws, gbs = jax.vmap(one)(X, y)
    return {"grad_w": gws.mean(axis=0), "grad_b": gbs.mean()}
