"""adamw_step: the step jitted with ``donate_argnums`` for the params and both moments (as a
training loop donates its state so that XLA updates it in place; the CPU backend ignores the
donation with a warning), the five hyperparameters static.

Problem: adamw_step
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(5, 6, 7, 8, 9), donate_argnums=(0, 2, 3))
def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    bc1, bc2 = 1 - b1 ** tf, 1 - b2 ** tf
    m = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
    params = jax.tree.map(lambda p, a, s: p - lr * ((a / bc1) / (jnp.sqrt(s / bc2) + eps) + weight_decay * p),
                          params, m, v)
    return {"params": params, "m": m, "v": v, "count": t}
