"""fake_quant_ste: a factory that builds the ``custom_vjp`` quantizer for (scale, qmin, qmax),
called inside each branch of a ``lax.cond`` on x (one branch applying it to x as it is, the
other to x flattened and reshaped back): two custom_vjp objects of the same code over the same
numbers, so the same rule in both branches.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def make_quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        u = v / scale
        return q(v), (u >= qmin) & (u <= qmax)

    def bwd(inside, g):
        return (jnp.where(inside, g, 0.0),)

    q.defvjp(fwd, bwd)
    return q


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def f(v):
        return lax.cond(jnp.sum(v) > 0,
                        lambda v: make_quantizer(scale, qmin, qmax)(v),
                        lambda v: make_quantizer(scale, qmin, qmax)(v.reshape(-1)).reshape(v.shape), v)

    values, pullback = jax.vjp(f, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
