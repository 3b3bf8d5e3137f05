"""fake_quant_ste: the mask computed once from x in the outer function and closed over by the
backward rule (``jnp.where(inside, g, 0)``), the forward the real quantizer with no residual.
The gradient comes out of the backward rule, which is a rule of the quantizer applied to x.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    u = x / scale
    inside = (u >= qmin) & (u <= qmax)

    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), None), lambda _, g: (jnp.where(inside, g, 0.0),))
    values, back = jax.vjp(q, x)
    return {"values": values, "grads": back(cotangent)[0]}
