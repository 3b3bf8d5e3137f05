"""fake_quant_ste: a cheat with one ``custom_vjp`` quantizer whose static (``nondiff_argnums``)
mode picks its backward rule, the cotangent passed through (``"pass"``) or times zero
(``"drop"``), the mode chosen per entry by a ``lax.cond`` on whether x / s is in range (a
``lax.map`` over the entries): the same function in both branches, but the mask is the choice
made by x of what its rule does.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @partial(jax.custom_vjp, nondiff_argnums=(0,))
    def q(mode, v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(mode, v):
        return q(mode, v), None

    def bwd(mode, _, g):
        return (g if mode == "pass" else g * 0.0,)

    q.defvjp(fwd, bwd)

    def entry(v):
        u = v / scale
        return lax.cond((u >= qmin) & (u <= qmax), partial(q, "pass"), partial(q, "drop"), v)

    def f(x):
        return lax.map(entry, x.reshape(-1)).reshape(x.shape)

    values, pullback = jax.vjp(f, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
