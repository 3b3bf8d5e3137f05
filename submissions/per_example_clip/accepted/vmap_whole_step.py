import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def clipped_mean_grad(w, b, X, y, clip_norm):
    def one_example(x, t):
        g = jax.grad(lambda p: 0.5 * (jnp.dot(x, p[0]) + p[1] - t) ** 2)((w, b))
        flat, unravel = ravel_pytree(g)
        flat = flat * jnp.minimum(1.0, clip_norm / (jnp.linalg.norm(flat) + 1e-37))
        return unravel(flat)

    gw, gb = jax.vmap(one_example)(X, y)
    return {"grad_w": gw.sum(axis=0) / X.shape[0], "grad_b": gb.sum() / X.shape[0]}
