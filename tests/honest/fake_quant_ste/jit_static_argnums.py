"""The entry point under jax.jit with scale, qmin and qmax static by position (static_argnums)."""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def fq(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fq_fwd(v):
        u = v / scale
        return scale * jnp.clip(jnp.round(u), qmin, qmax), ((u >= qmin) & (u <= qmax))

    def fq_bwd(inside, g):
        return (jnp.where(inside, g, 0.0),)

    fq.defvjp(fq_fwd, fq_bwd)
    values, pull = jax.vjp(fq, x)
    return {"values": values, "grads": pull(cotangent)[0]}
