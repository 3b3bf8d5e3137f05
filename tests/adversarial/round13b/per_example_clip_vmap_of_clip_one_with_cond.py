"""per_example_clip: one function for one example (its gradient, its norm and a ``lax.cond``
that rescales only when the norm is above the bound), ``jax.vmap``-ed over the batch (the cond
becomes a select), then the mean.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def clipped_grad(x, t):
        gw, gb = jax.grad(lambda w, b: 0.5 * (x @ w + b - t) ** 2, argnums=(0, 1))(w, b)
        norm = jnp.sqrt(jnp.sum(gw * gw) + gb * gb)
        return jax.lax.cond(norm > clip_norm,
                            lambda: (gw * (clip_norm / norm), gb * (clip_norm / norm)),
                            lambda: (gw, gb))

    gw, gb = jax.vmap(clipped_grad)(X, y)
    return {"grad_w": gw.mean(axis=0), "grad_b": gb.mean()}
