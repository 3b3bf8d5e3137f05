"""Defines a proper custom_vjp quantizer and uses it for the values, but the
grads are computed directly by the formula cotangent * mask instead of by
differentiating through the custom_vjp function (its bwd is never run).

Expected verdict: rejected -- numerically correct, but grads must come from
jax.vjp/jax.grad through the custom_vjp so that its backward rule produces them.
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        return quant(v), v

    def quant_bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(quant_fwd, quant_bwd)

    values = quant(x)
    u = x / scale
    grads = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    return {"values": values, "grads": grads}
