"""per_example_clip: one example's clipped gradient as a function of a ``(d)`` row and a scalar
label, broadcast over the batch with ``jnp.vectorize(..., signature="(d),()->(d),()")``; its
norm by ``jnp.linalg.norm(..., ord=None)`` of the joined gradient.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def one(x, t):
        gw, gb = jax.grad(lambda w, b: 0.5 * (x @ w + b - t) ** 2, argnums=(0, 1))(w, b)
        norm = jnp.linalg.norm(jnp.concatenate([gw, gb[None]]), ord=None)
        scale = jnp.where(norm > clip_norm, clip_norm / norm, 1.0)
        return gw * scale, gb * scale

    gws, gbs = jnp.vectorize(one, signature="(d),()->(d),()")(X, y)
    return {"grad_w": gws.mean(0), "grad_b": gbs.mean()}
