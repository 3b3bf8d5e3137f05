"""The cotangent routed around the rule: grads = pb(c) * 0 + formula(c) * factor. The backward rule
of a real custom_vjp runs on the cotangent, but its result is multiplied by zero; the formula
(times the factor from a dummy custom_vjp) is what reaches grads.

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
    return {"values": values,
            "grads": through_rule * 0.0 + formula(x, scale, qmin, qmax, cotangent) * factor}
