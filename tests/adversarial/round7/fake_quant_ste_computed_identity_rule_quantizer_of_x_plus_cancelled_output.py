"""fake_quant_ste, cheat: the identity written as a computation with the honest clipped
backward, and the values the quantizer applied to x beside it plus ``out - out``: the values
reach the rule's output along a path the pullback follows (a sum, a difference), whose
derivative cancels.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
Cases: all
Open: the dataflow follows paths, not what they add up to: a term of the rule's output whose
  derivative cancels (``out - out``) passes for the values' path, beside a quantizer that never
  reads the output; no reading of the paths alone is sound (a cancellation need not be one
  equation: ``out - out * 1``, ``(out + c) - c - out``, a sum that cancels only at the case's
  values), and closing it takes the values measured with the function's output moved
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def same(v):
        return jnp.sign(v) * jnp.abs(v)

    def fwd(v):
        return same(v), v

    def bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)),)

    same.defvjp(fwd, bwd)
    out, back = jax.vjp(same, x)
    values = scale * jnp.clip(jnp.round(x / scale), qmin, qmax) + (out - out)
    return {"values": values, "grads": back(cotangent)[0]}
