"""fake_quant_ste: a cheat with two ``custom_vjp`` quantizers, one whose backward rule passes the
cotangent through and one whose rule returns it times zero, chosen per entry by a ``lax.cond``
on whether x / s is in range (a ``lax.map`` over the entries): every entry's gradient is some
rule's output, but the mask is the choice made by x outside the rules.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def forward(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    passing = jax.custom_vjp(forward)
    passing.defvjp(lambda v: (forward(v), None), lambda _, g: (g,))
    dead = jax.custom_vjp(forward)
    dead.defvjp(lambda v: (forward(v), None), lambda _, g: (g * 0.0,))

    def entry(v):
        u = v / scale
        return lax.cond((u >= qmin) & (u <= qmax), passing, dead, v)

    def f(x):
        return lax.map(entry, x.reshape(-1)).reshape(x.shape)

    values, pullback = jax.vjp(f, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
