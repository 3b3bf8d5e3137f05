"""adamw_step: an optax-like chain written by hand: ``scale_by_adam`` (returns updates and the
new moments), ``add_decayed_weights`` and ``scale(-lr)`` as links folded with
``functools.reduce``, each link a function of ``(updates, params)``; ``optax.apply_updates`` as a
``tree_map`` of ``+``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp

tmap = jax.tree_util.tree_map


def scale_by_adam(m, v, count, b1, b2, eps):
    t = count + 1
    out = {}

    def link(updates, params):
        out["m"] = tmap(lambda m, g: b1 * m + (1 - b1) * g, m, updates)
        out["v"] = tmap(lambda v, g: b2 * v + (1 - b2) * g * g, v, updates)
        bc1 = 1 - jnp.power(b1, t)
        bc2 = 1 - jnp.power(b2, t)
        return tmap(lambda m, v: (m / bc1) / (jnp.sqrt(v / bc2) + eps), out["m"], out["v"])

    return link, out


def add_decayed_weights(wd):
    return lambda updates, params: tmap(lambda u, p: u + wd * p, updates, params)


def scale(k):
    return lambda updates, params: tmap(lambda u: k * u, updates)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    adam, state = scale_by_adam(m, v, count, b1, b2, eps)
    links = [adam, add_decayed_weights(weight_decay), scale(-lr)]
    updates = functools.reduce(lambda u, f: f(u, params), links, grads)
    new_params = tmap(operator.add, params, updates)
    return {"params": new_params, "m": state["m"], "v": state["v"], "count": count + 1}
