"""fake_quant_ste: ``from __future__ import annotations`` with ``jax.Array`` hints, a module-level
``custom_vjp`` with ``nondiff_argnums=(1, 2, 3)`` for scale, qmin and qmax, the clip written
``jnp.clip(..., min=qmin, max=qmax)``, the mask computed in the forward rule and saved as the
residual, the gradient through ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def quantize(x: jax.Array, scale: float, qmin: int, qmax: int) -> jax.Array:
    return scale * jnp.clip(jnp.round(x / scale), min=qmin, max=qmax)


def _fwd(x: jax.Array, scale: float, qmin: int, qmax: int):
    r = x / scale
    keep = jnp.logical_and(r >= qmin, r <= qmax)
    return quantize(x, scale, qmin, qmax), keep


def _bwd(scale: float, qmin: int, qmax: int, keep: jax.Array, g: jax.Array):
    return (jnp.where(keep, g, jnp.zeros_like(g)),)


quantize.defvjp(_fwd, _bwd)


def fake_quant_ste(x: jax.Array, scale: float, qmin: int, qmax: int,
                   cotangent: jax.Array) -> dict[str, jax.Array]:
    values, pull = jax.vjp(lambda a: quantize(a, scale, qmin, qmax), x)
    (grads,) = pull(cotangent)
    return {"values": values, "grads": grads}
