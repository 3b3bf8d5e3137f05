"""jax.vjp of a lax.switch whose three branches all apply the custom_vjp quantizer.

Open: the switch's index reads x, and one branch (which no case takes) scales the quantizer's
  output by 2: inside branches chosen by x, the cotangent outside the rules may only be moved,
  since a factor chosen by x is a mask whatever its size (the rule can carry its reciprocal:
  a rule returning 1e-30 * g, scaled by 1e30 where x is in range and by 1 elsewhere), so the
  whole program is refused; only a bound on the ratio of the branches' factors would accept
  it, which would tie the verdict to the problem's tolerance
"""
import jax
import jax.numpy as jnp
from jax import lax


def make(scale, qmin, qmax):
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


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    quant = make(scale, qmin, qmax)
    f = lambda v: lax.switch(jnp.where(v.sum() > 1e9, 2, 1), [lambda w: quant(w) * 2.0, quant, lambda w: quant(w) + 0.0], v)
    values, pb = jax.vjp(f, x)
    return {"values": values, "grads": pb(cotangent)[0]}
