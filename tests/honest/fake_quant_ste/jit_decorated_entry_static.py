"""The entry point itself under jax.jit with static scale, qmin and qmax."""
import functools

import jax
import jax.numpy as jnp


def _q(v, scale, qmin, qmax):
    return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)


@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def quant(v, scale, qmin, qmax):
    return _q(v, scale, qmin, qmax)


def _fwd(v, scale, qmin, qmax):
    return _q(v, scale, qmin, qmax), v


def _bwd(scale, qmin, qmax, v, g):
    r = v / scale
    return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)


quant.defvjp(_fwd, _bwd)


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pb = jax.vjp(lambda v: quant(v, scale, qmin, qmax), x)
    return {"values": values, "grads": pb(cotangent)[0]}
