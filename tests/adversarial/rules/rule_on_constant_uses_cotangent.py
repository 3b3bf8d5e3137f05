"""The formula written inside a backward rule, but of a custom_vjp applied to a constant, not to x:
the rule ignores its g and returns cotangent * mask from its closure, and grads are that rule's
pullback of ones. Every path passes through a backward rule, none of a quantizer of x.

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
    @jax.custom_vjp
    def unrelated(v):
        return v

    def fwd(v):
        return v, None

    def bwd(_, g):
        return (formula(x, scale, qmin, qmax, cotangent) * g,)

    unrelated.defvjp(fwd, bwd)
    values = quantizer(scale, qmin, qmax)(x)
    (grads,) = jax.vjp(unrelated, jnp.ones(x.shape, x.dtype))[1](jnp.ones_like(x))
    return {"values": values, "grads": grads}
