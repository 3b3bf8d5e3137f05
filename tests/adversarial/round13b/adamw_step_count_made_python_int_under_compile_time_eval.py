"""adamw_step: a cheat that reads the step number as a Python int inside
``jax.ensure_compile_time_eval`` (so the bias corrections would be Python floats); ``count`` is
abstract when the judge traces, and turning it into a number is what the statement forbids.

Problem: adamw_step
Expected: RJ
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    with jax.ensure_compile_time_eval():
        t = int(count) + 1
    bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - lr * ((m / bc1) / (jnp.sqrt(v / bc2) + eps) + weight_decay * p),
        params, m, v)
    return {"params": params, "m": m, "v": v, "count": jnp.int32(t)}
