"""Honest: optax's building blocks written out (update_moment, bias_correction,
scale_by_adam, add_decayed_weights, scale_by_learning_rate) and applied in a chain."""
import jax
import jax.numpy as jnp


def update_moment(updates, moments, decay, order):
    return jax.tree_util.tree_map(lambda g, t: (1 - decay) * (g ** order) + decay * t,
                                  updates, moments)


def bias_correction(moment, decay, count):
    correction = 1 - decay ** count
    return jax.tree_util.tree_map(lambda t: t / correction.astype(t.dtype), moment)


def scale_by_adam(updates, mu, nu, count, b1, b2, eps):
    mu = update_moment(updates, mu, b1, 1)
    nu = update_moment(updates, nu, b2, 2)
    count_inc = count + jnp.array(1, dtype=jnp.int32)
    mu_hat = bias_correction(mu, b1, count_inc)
    nu_hat = bias_correction(nu, b2, count_inc)
    updates = jax.tree_util.tree_map(lambda m, v: m / (jnp.sqrt(v) + eps), mu_hat, nu_hat)
    return updates, mu, nu, count_inc


def add_decayed_weights(updates, params, weight_decay):
    return jax.tree_util.tree_map(lambda g, p: g + weight_decay * p, updates, params)


def apply_updates(params, updates, lr):
    return jax.tree_util.tree_map(lambda p, u: p - lr * u, params, updates)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    updates, mu, nu, count_inc = scale_by_adam(grads, m, v, count, b1, b2, eps)
    updates = add_decayed_weights(updates, params, weight_decay)
    return {"params": apply_updates(params, updates, lr), "m": mu, "v": nu, "count": count_inc}
