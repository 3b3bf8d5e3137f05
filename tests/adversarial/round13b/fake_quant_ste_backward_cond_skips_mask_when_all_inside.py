"""fake_quant_ste: a backward rule that chooses by data between two exact spellings of the same
gradient: when every entry lies in the range it returns the cotangent as it is (a shortcut a
student may add), otherwise it multiplies by the mask, under ``lax.cond``. Both branches are
the straight-through estimator.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def fwd(x):
        v = x / scale
        return q(x), (v >= qmin) & (v <= qmax)

    def bwd(inside, g):
        return (jax.lax.cond(jnp.all(inside), lambda g: g,
                             lambda g: g * inside.astype(g.dtype), g),)

    q.defvjp(fwd, bwd)
    values, pullback = jax.vjp(q, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
