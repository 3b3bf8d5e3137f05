from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def quant(x, s, lo, hi):
    return s * jnp.clip(jnp.round(x / s), lo, hi)


def _fwd(x, s, lo, hi):
    return quant(x, s, lo, hi), x


def _bwd(s, lo, hi, x, g):
    r = x / s
    return (g * ((r >= lo) & (r <= hi)).astype(g.dtype),)


quant.defvjp(_fwd, _bwd)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pull = jax.vjp(lambda x: quant(x, scale, qmin, qmax), x)
    return {"values": values, "grads": pull(cotangent)[0]}
