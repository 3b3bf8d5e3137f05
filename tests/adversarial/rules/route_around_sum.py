"""The cotangent routed around the rule: grads = pb(c) + (formula(c) * factor - pb(c)), where pb is
the pullback of a real custom_vjp quantizer. Part of the cotangent passes through the backward
rule, but the formula path reaches grads without it (the factor, from a dummy custom_vjp, keeps
the perturbation check happy).

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
    values, pullback = jax.vjp(quantizer(scale, qmin, qmax), x)
    (through_rule,) = pullback(cotangent)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    around = formula(x, scale, qmin, qmax, cotangent) * factor
    return {"values": values, "grads": through_rule + (around - through_rule)}
