"""fake_quant_ste: the ``custom_vjp`` applied to ``u = x / scale`` (rounding and clipping the
levels, the backward the clipped mask), the values scaled back outside the rule; round half to
even written by hand from ``jnp.floor(u + 0.5)`` corrected where u + 0.5 is an odd whole number.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def round_half_even(u):
    r = jnp.floor(u + 0.5)
    tie = (r - u) == 0.5
    odd = jnp.mod(r, 2.0) == 1.0
    return jnp.where(tie & odd, r - 1.0, r)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def levels(u):
        return jnp.clip(round_half_even(u), qmin, qmax)

    def fwd(u):
        return levels(u), u

    def bwd(u, g):
        return (g * ((u >= qmin) & (u <= qmax)),)

    levels.defvjp(fwd, bwd)

    def f(x):
        return scale * levels(x / scale)

    values, vjp = jax.vjp(f, x)
    return {"values": values, "grads": vjp(cotangent)[0]}
