"""The cotangent laundered through control flow only: the bits of cotangent * mask are rebuilt one
by one with jax.lax.cond, whose predicate is the bit and whose branches see only constants, so no
data edge leads from the cotangent to grads (only the predicates of the conds); times the factor
from a dummy custom_vjp.

Class 1 (pure JAX).
Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


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


@jax.custom_vjp
def dummy(v):
    return v


dummy.defvjp(lambda v: (v, None), lambda _, g: (jnp.ones_like(g),))


def formula(x, scale, qmin, qmax, cotangent):
    u = x / scale
    return cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)


def set_bit(acc, bit):
    return acc | bit


def keep(acc, bit):
    return acc


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values = quantizer(scale, qmin, qmax)(x)
    bits = jax.lax.bitcast_convert_type(formula(x, scale, qmin, qmax, cotangent), jnp.uint32)
    flat = bits.reshape(-1)
    rebuilt = []
    for i in range(flat.shape[0]):
        acc = jnp.uint32(0)
        for b in range(32):
            bit = jnp.uint32(1 << b)
            acc = jax.lax.cond((flat[i] & bit) != 0, set_bit, keep, acc, bit)
        rebuilt.append(acc)
    grads = jax.lax.bitcast_convert_type(jnp.stack(rebuilt), jnp.float32).reshape(x.shape)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    return {"values": values, "grads": grads * factor}
