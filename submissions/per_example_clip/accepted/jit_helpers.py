from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def per_example_grads(w, b, X, y):
    def loss(w, b, x, t):
        return 0.5 * (jnp.dot(x, w) + b - t) ** 2
    return jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)


@partial(jax.jit, static_argnums=2)
def clip_rows(gw, gb, clip_norm):
    norm = jnp.sqrt(jnp.einsum("nd,nd->n", gw, gw) + gb * gb)
    factor = jnp.minimum(1.0, clip_norm / jnp.maximum(norm, jnp.finfo(jnp.float32).tiny))
    return gw * factor[:, None], gb * factor


def clipped_mean_grad(w, b, X, y, clip_norm):
    gw, gb = per_example_grads(w, b, X, y)
    gw, gb = clip_rows(gw, gb, clip_norm)
    return {"grad_w": gw.mean(0), "grad_b": gb.mean()}
