"""fake_quant_ste: a frozen ``dataclass`` holding scale and the levels, passed to the
``custom_vjp`` as its first, nondifferentiable argument (``nondiff_argnums=(0,)``; the frozen
dataclass is hashable); type annotations, a method for the levels and a ``__main__`` block.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class QuantConfig:
    scale: float
    qmin: int
    qmax: int

    def levels(self, x: jax.Array) -> jax.Array:
        return x / self.scale


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def fake_quant(cfg: QuantConfig, x: jax.Array) -> jax.Array:
    return cfg.scale * jnp.clip(jnp.round(cfg.levels(x)), cfg.qmin, cfg.qmax)


def _fwd(cfg: QuantConfig, x: jax.Array):
    v = cfg.levels(x)
    return fake_quant(cfg, x), (v >= cfg.qmin) & (v <= cfg.qmax)


def _bwd(cfg: QuantConfig, mask: jax.Array, g: jax.Array):
    return (jnp.where(mask, g, 0.0),)


fake_quant.defvjp(_fwd, _bwd)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    cfg = QuantConfig(float(scale), int(qmin), int(qmax))
    values, vjp_fn = jax.vjp(partial(fake_quant, cfg), x)
    return {"values": values, "grads": vjp_fn(cotangent)[0]}


if __name__ == "__main__":
    x = jnp.array([0.3, 1.25, -0.75, 2.6, -3.0])
    print(fake_quant_ste(x, 0.5, -4, 3, jnp.ones_like(x)))
