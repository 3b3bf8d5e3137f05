"""fake_quant_ste: a cheat with the plain STE rule run inside both branches of a ``lax.cond``
per entry chosen by whether x / s is in range, the out-of-range branch zeroing the cotangent
before it enters the rule: the rule passes whatever it is given, and the mask is a choice made
by x outside it.

Problem: fake_quant_ste
Expected: RJ grads_not_from_backward
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), None), lambda _, g: (g,))
    values = q(x)
    flat_x, flat_c = x.reshape(-1), cotangent.reshape(-1)
    inside = (flat_x / scale >= qmin) & (flat_x / scale <= qmax)
    pull = lambda xi, ci: jax.vjp(q, xi)[1](ci)[0]
    grads = [lax.cond(inside[i], pull, lambda xi, ci: pull(xi, ci * 0.0), flat_x[i], flat_c[i])
             for i in range(flat_x.shape[0])]
    return {"values": values, "grads": jnp.stack(grads).reshape(x.shape)}
