"""The cotangent saved as a residual (a second primal argument of the quantizer) and multiplied by
g inside the backward rule, with the pullback taken of ones: g does flow through the rule, but the
cotangent itself enters it as a residual.

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
        u = v / scale
        return quant(v, c), c * ((u >= qmin) & (u <= qmax)).astype(v.dtype)

    def bwd(masked, g):
        return (masked * g, None)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x, cotangent)
    grads, _ = pullback(jnp.ones_like(x))
    return {"values": values, "grads": grads}
