"""fake_quant_ste: honest code whose forward rule saves no residual but writes the ratio
``x / scale`` into a dict it closes over, and whose backward rule reads it back from there to
build the mask.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    box = {}

    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        box["ratio"] = v / scale
        return q(v), None

    def bwd(_, g):
        r = box["ratio"]
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    return {"values": values, "grads": pb(cotangent)[0]}
