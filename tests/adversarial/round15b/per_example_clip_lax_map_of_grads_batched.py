"""per_example_clip: a near miss: ``jax.lax.map`` of the per-example gradient with
``batch_size=8`` (JAX turns it into a scan over groups of 8 and a vmap inside): the statement
refuses ``lax.map``.

Problem: per_example_clip
Expected: RJ forbidden_primitive
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def one(xy):
        xi, yi = xy
        gw, gb = jax.grad(lambda w, b: 0.5 * (xi @ w + b - yi) ** 2, argnums=(0, 1))(w, b)
        n = jnp.sqrt(jnp.sum(gw ** 2) + gb ** 2)
        s = 1.0 / jnp.maximum(1.0, n / clip_norm)
        return gw * s, gb * s

    gw, gb = jax.lax.map(one, (X, y), batch_size=8)
    return {"grad_w": gw.mean(0), "grad_b": gb.mean()}
