"""The whole entry point is wrapped in jax.jit with scale, qmin and qmax
declared static (static_argnames), so they stay Python numbers inside the
trace; x and cotangent are traced.  The quantizer is a custom_vjp closure.

Expected verdict: accepted (jit is transparent to the judge's make_jaxpr trace;
values and grads are exact).
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("scale", "qmin", "qmax"))
def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fq_fwd(v):
        u = v / scale
        keep = ((u >= qmin) & (u <= qmax)).astype(v.dtype)
        return scale * jnp.clip(jnp.round(u), qmin, qmax), keep

    def fq_bwd(keep, g):
        return (g * keep,)

    fq.defvjp(fq_fwd, fq_bwd)

    values, pull = jax.vjp(fq, x)
    return {"values": values, "grads": pull(cotangent)[0]}
