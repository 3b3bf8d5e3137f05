"""The cotangent passed to the quantizer as a second primal argument, saved by the forward rule as
a residual, and read back by the backward rule, which ignores g; grads are the pullback of ones.
The formula is computed inside a rule, but the cotangent entered it as a residual, not as the
rule's cotangent input.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v, c):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v, c):
        return quant(v, c), (v, c)

    def bwd(res, g):
        v, c = res
        u = v / scale
        return (c * ((u >= qmin) & (u <= qmax)).astype(c.dtype), jnp.zeros_like(c))

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(lambda v: quant(v, cotangent), x)
    (grads,) = pullback(jnp.ones_like(x))
    return {"values": values, "grads": grads}
