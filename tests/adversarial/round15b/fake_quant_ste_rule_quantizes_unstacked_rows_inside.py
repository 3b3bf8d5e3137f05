"""fake_quant_ste: the quantizer's forward takes its input apart with ``jnp.unstack``, quantizes
each part in a Python loop (the shape is a number here) and puts them back with ``jnp.stack``;
the backward rule applies the mask to the whole cotangent.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def one(part):
        return scale * jnp.clip(jnp.round(part / scale), qmin, qmax)

    @jax.custom_vjp
    def q(v):
        return jnp.stack([one(part) for part in jnp.unstack(v)])

    def fwd(v):
        return q(v), v / scale

    def bwd(r, g):
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    return {"values": values, "grads": pb(cotangent)[0]}
