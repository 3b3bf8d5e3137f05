"""The formula computed in a custom_vjp's *forward* computation: a custom_vjp of (x, cotangent)
whose primal output is (q(x), cotangent * mask) is called outside any differentiation, so the
cotangent passes through a custom_vjp_call but never through a backward rule; the gradient half is
multiplied by the factor from a dummy custom_vjp.

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
    def both(v, c):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax), formula(v, scale, qmin, qmax, c)

    def fwd(v, c):
        return both(v, c), None

    def bwd(_, gs):
        return (jnp.zeros_like(gs[0]), jnp.zeros_like(gs[1]))

    both.defvjp(fwd, bwd)
    values, grads = both(x, cotangent)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    return {"values": values, "grads": grads * factor}
