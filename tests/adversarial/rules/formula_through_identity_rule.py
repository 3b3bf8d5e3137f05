"""The formula fed *into* a backward rule that does nothing: the cotangent times the mask,
computed outside any rule, is pulled back through an identity custom_vjp applied to x (its rule
returns g). The gradient leaves a real rule, marked and scaled like any other, but the rule did
not compute it: the cotangent was mixed with a value of x before it entered the rule. The mirror
image of identity_rule_then_formula.py.

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


def formula(x, scale, qmin, qmax, cotangent):
    u = x / scale
    return cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)


@jax.custom_vjp
def passthrough(v):
    return v


passthrough.defvjp(lambda v: (v, None), lambda _, g: (g,))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values = quantizer(scale, qmin, qmax)(x)
    _, pullback = jax.vjp(passthrough, x)
    (grads,) = pullback(formula(x, scale, qmin, qmax, cotangent))
    return {"values": values, "grads": grads}
