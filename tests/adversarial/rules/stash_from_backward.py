"""A custom_vjp applied to x whose backward rule computes g * mask, stashes it in a Python list and
returns zeros; the stashed value (a traced intermediate of the rule, not its output) is used
outside as grads, times the factor from a dummy custom_vjp.

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
    stash = []

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        stash.append(jnp.where((u >= qmin) & (u <= qmax), g, 0.0))
        return (jnp.zeros_like(g),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    pullback(cotangent)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    return {"values": values, "grads": stash[-1] * factor}
