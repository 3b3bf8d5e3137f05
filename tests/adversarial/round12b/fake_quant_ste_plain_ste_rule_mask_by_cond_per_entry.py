"""fake_quant_ste: the plain STE rule (its backward passes the cotangent), and the clip's zeros
chosen afterwards entry by entry by a ``lax.cond`` on whether x / s is in range (x has at most
six entries and a concrete shape, so a Python loop over them), the entries stacked back.

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
    values, back = jax.vjp(q, x)
    g = back(cotangent)[0].ravel()
    u = (x / scale).ravel()
    entries = []
    for i in range(g.shape[0]):
        inside = (u[i] >= qmin) & (u[i] <= qmax)
        entries.append(lax.cond(inside, lambda e: e, lambda e: jnp.zeros_like(e), g[i]))
    return {"values": values, "grads": jnp.stack(entries).reshape(x.shape)}
