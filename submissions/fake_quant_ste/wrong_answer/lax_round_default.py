"""Rounds with jax.lax.round(u) using its default rounding method, which is
RoundingMethod.AWAY_FROM_ZERO, not round-half-to-even.  custom_vjp and the
backward rule are correct.

Expected verdict: wrong_answer -- ties go away from zero: x/scale = 2.5 gives 3
instead of 2 (first example: x=1.25, scale=0.5 -> 1.5, expected 1.0).
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def quantize(x, scale, qmin, qmax):
    return scale * jnp.clip(jax.lax.round(x / scale), qmin, qmax)


def _fwd(x, scale, qmin, qmax):
    return quantize(x, scale, qmin, qmax), x


def _bwd(scale, qmin, qmax, x, g):
    u = x / scale
    return (g * ((u >= qmin) & (u <= qmax)).astype(g.dtype),)


quantize.defvjp(_fwd, _bwd)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, vjp_fn = jax.vjp(lambda v: quantize(v, scale, qmin, qmax), x)
    return {"values": values, "grads": vjp_fn(cotangent)[0]}
