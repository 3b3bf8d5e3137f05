"""The factor trick under jax.vmap over the entries of x: the dummy custom_vjp's pullback, batched,
multiplied into batched formula grads.

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


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values = quantizer(scale, qmin, qmax)(x)

    def one(v, c):
        (factor,) = jax.vjp(dummy, v)[1](jnp.ones_like(v))
        return formula(v, scale, qmin, qmax, c) * factor

    flat = jax.vmap(one)(x.reshape(-1), cotangent.reshape(-1))
    return {"values": values, "grads": flat.reshape(x.shape)}
