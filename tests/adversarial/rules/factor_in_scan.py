"""The factor trick inside jax.lax.scan over the entries of x: each step takes the dummy
custom_vjp's pullback and multiplies it into that entry's formula gradient.

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

    def step(carry, operands):
        v, c = operands
        (factor,) = jax.vjp(dummy, v)[1](jnp.ones_like(v))
        return carry, formula(v, scale, qmin, qmax, c) * factor

    _, flat = jax.lax.scan(step, 0.0, (x.reshape(-1), cotangent.reshape(-1)))
    return {"values": values, "grads": flat.reshape(x.shape)}
