"""A typing.NamedTuple matched positionally, unpacked, indexed and rebuilt with _make."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Range(NamedTuple):
    lo: int
    hi: int


class Settings(NamedTuple):
    scale: float
    range: Range


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    settings = Settings._make([scale, Range(qmin, qmax)])
    match settings:
        case Settings(s, Range(lo, hi)):
            pass
    assert settings[1] == (lo, hi) and len(settings) == 2

    @jax.custom_vjp
    def quant(v):
        return s * jnp.clip(jnp.round(v / s), *settings.range)

    def fwd(v):
        return quant(v), v / s

    def bwd(u, g):
        return (g * ((u >= lo) & (u <= hi)).astype(g.dtype),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
