"""per_example_clip: honest code under ``functools.partial(jax.jit, static_argnames=...)``: the
per-example gradient from ``jax.value_and_grad`` under ``vmap``, clipped per example by a
``jax.lax.cond`` with lambdas (a select under ``vmap``).

Problem: per_example_clip
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _loss(params, xi, yi):
    w, b = params
    return 0.5 * jnp.square(jnp.dot(xi, w) + b - yi)


def _clip_one(gw, gb, c):
    norm = jnp.sqrt(jnp.sum(gw ** 2) + gb ** 2)
    return jax.lax.cond(norm > c,
                        lambda p: (p[0] * (c / norm), p[1] * (c / norm)),
                        lambda p: p,
                        (gw, gb))


@functools.partial(jax.jit, static_argnames=("clip_norm",))
def clipped_mean_grad(w, b, X, y, clip_norm):
    _, (gw, gb) = jax.vmap(jax.value_and_grad(_loss), in_axes=(None, 0, 0))((w, b), X, y)
    cw, cb = jax.vmap(lambda a, c: _clip_one(a, c, clip_norm))(gw, gb)
    return {"grad_w": jnp.mean(cw, axis=0), "grad_b": jnp.mean(cb)}
