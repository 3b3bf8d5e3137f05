"""The quantizer is applied to x, and its backward rule multiplies g by the outer cotangent
times the mask, taken from its closure; grads are the pullback of ones. The formula is computed
inside the rule, but the cotangent enters the rule from its closure, not as its cotangent input.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), None

    def bwd(_, g):
        u = x / scale
        return (cotangent * ((u >= qmin) & (u <= qmax)).astype(g.dtype) * g,)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(jnp.ones_like(x))
    return {"values": values, "grads": grads}
