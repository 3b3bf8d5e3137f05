"""spectral_norm: a ``normalize`` helper in the habit of deep-learning libraries, dividing by
``jnp.maximum(norm, 1e-12)``: the floor never binds (the cases keep both norms above 1e-2), so
the steps are exactly the statement's; the loop a ``while_loop`` from 1 to K inclusive, and sigma taken on the stopped W plus
``sum((W - stop_gradient(W)) * outer(u, v))``, zero in value, for the derivative.

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def normalize(x, eps=1e-12):
    return x / jnp.maximum(jnp.linalg.norm(x), eps)


def spectral_norm(W, u0, K):
    Wd = jax.lax.stop_gradient(W)

    def cond(c):
        return c[0] <= K

    def body(c):
        i, u, _ = c
        v = normalize(Wd.T @ u)
        return i + 1, normalize(Wd @ v), v

    _, u, v = jax.lax.while_loop(cond, body, (1, u0, jnp.zeros(W.shape[1], W.dtype)))
    return jnp.dot(u, Wd @ v) + jnp.sum((W - Wd) * jnp.outer(u, v))
