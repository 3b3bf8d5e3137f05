"""The factor trick inside jax.lax.cond: both branches (chosen by a traced predicate) take the
dummy custom_vjp's pullback and multiply it into formula grads.

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

    def branch(operands):
        v, c = operands
        (factor,) = jax.vjp(dummy, v)[1](jnp.ones_like(v))
        return formula(v, scale, qmin, qmax, c) * factor

    grads = jax.lax.cond(jnp.sum(x) >= 0, branch, branch, (x, cotangent))
    return {"values": values, "grads": grads}
