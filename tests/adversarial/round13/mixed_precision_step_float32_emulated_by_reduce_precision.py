"""mixed_precision_step, cheat: the whole step in float32, each result rounded to float16's
format by ``lax.reduce_precision(exponent_bits=5, mantissa_bits=10)`` (overflows become
infinities as in float16), so the products and tanh never run in float16. The statement
refuses a float32 program that imitates float16.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _r(a):
    return lax.reduce_precision(a, exponent_bits=5, mantissa_bits=10)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(_r, params)

    def scaled(p):
        hid = _r(jnp.tanh(_r(_r(_r(x) @ p["dense"]["w"]) + p["dense"]["b"])))
        pred = _r(hid @ p["out"]["w"])
        return _r(_r(jnp.mean(_r((pred - _r(y)) ** 2))) * loss_scale)

    g = jax.tree.map(lambda a: _r(a) / loss_scale, jax.grad(scaled)(p))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
