"""A lax.switch on an index computed from a constant by a custom_jvp (its primal gives 0, the
formula's branch; its tangent rule is never asked): the dataflow does not read a value
through the submission's own rules, so both branches count, the formula's among them.

Class 1 (pure JAX).
Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.custom_jvp
def pick(c):
    return c - 1


pick.defjvp(lambda primals, tangents: (pick(*primals), tangents[0]))


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


def formula(scale, qmin, qmax):
    """The quantizer's values, and the cotangent times its mask, by a stop_gradient formula."""
    def cheat(v):
        u = v / scale
        mask = ((u >= qmin) & (u <= qmax)).astype(v.dtype)
        q = scale * jnp.clip(jnp.round(u), qmin, qmax)
        return mask * v + lax.stop_gradient(q - mask * v)
    return cheat



def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    branches = [formula(scale, qmin, qmax), quantizer(scale, qmin, qmax)]
    values, pullback = jax.vjp(lambda v: lax.switch(pick(jnp.int32(1)), branches, v), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
