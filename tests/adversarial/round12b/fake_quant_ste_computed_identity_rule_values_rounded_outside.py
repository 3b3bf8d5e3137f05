"""fake_quant_ste: a ``custom_vjp`` whose forward is the identity written as a computation
(``sign(v) * |v|``, exact) and whose backward is the honest clipped mask (from the residual
x); the rounding and clipping applied outside, to the rule's output. The values are a formula
outside the rule, and reach the rule's output only through ``round``, whose derivative is zero:
the gradient is not the pullback of the function that makes the values
(``judge.worker.smooth``).

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def near_identity(v):
        return jnp.sign(v) * jnp.abs(v)

    def fwd(v):
        return near_identity(v), v

    def bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)),)

    near_identity.defvjp(fwd, bwd)
    out, back = jax.vjp(near_identity, x)
    values = scale * jnp.clip(jnp.round(out / scale), qmin, qmax)
    return {"values": values, "grads": back(cotangent)[0]}
