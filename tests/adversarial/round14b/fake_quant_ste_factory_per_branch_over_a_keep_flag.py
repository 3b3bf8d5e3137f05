"""fake_quant_ste: a cheat whose factory builds a quantizer whose backward rule keeps the
cotangent or zeroes it by a Python flag in its closure, called with ``keep=True`` in one branch
and ``keep=False`` in the other of a ``lax.cond`` per entry (a ``lax.map``) on whether x / s is
in range: the same code, but two rules, chosen by x.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def make_quantizer(scale, qmin, qmax, keep):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), None), lambda _, g: (g if keep else g * 0.0,))
    return q


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def entry(v):
        u = v / scale
        return lax.cond((u >= qmin) & (u <= qmax), make_quantizer(scale, qmin, qmax, True),
                        make_quantizer(scale, qmin, qmax, False), v)

    values, pullback = jax.vjp(lambda x: lax.map(entry, x.ravel()).reshape(x.shape), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
