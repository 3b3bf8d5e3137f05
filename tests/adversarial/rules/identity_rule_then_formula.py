"""The cotangent passes through a backward rule, but one that does nothing: a plain straight-through
custom_vjp applied to x whose rule returns g unchanged; the range mask is then applied by a formula
outside any rule. The rule's output is scaled like any other, so a factor test cannot see the
formula; the gradient is still not what a backward rule returned: what left the rule is mixed
with a value of x outside it.

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
    def passthrough(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    passthrough.defvjp(lambda v: (passthrough(v), None), lambda _, g: (g,))
    values, pullback = jax.vjp(passthrough, x)
    (g,) = pullback(cotangent)
    u = x / scale
    return {"values": values, "grads": g * ((u >= qmin) & (u <= qmax)).astype(g.dtype)}
