"""Honest: the four trees raveled into vectors with jax.flatten_util.ravel_pytree, one
vectorised step, and the results unraveled back."""
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    p, unravel = ravel_pytree(params)
    g, _ = ravel_pytree(grads)
    mu, _ = ravel_pytree(m)
    nu, _ = ravel_pytree(v)
    mu = b1 * mu + (1 - b1) * g
    nu = b2 * nu + (1 - b2) * g * g
    t = count + 1
    mu_hat = mu / (1 - b1 ** t)
    nu_hat = nu / (1 - b2 ** t)
    p = p - lr * (mu_hat / (jnp.sqrt(nu_hat) + eps) + weight_decay * p)
    return {"params": unravel(p), "m": unravel(mu), "v": unravel(nu), "count": t}
